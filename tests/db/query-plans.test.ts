import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../server/support.ts'

/**
 * The plans SQLite makes for the money path's lookups, on the schema the migrations build: each reads
 * an index, not the whole table (a table scan grows with every payment the treasury ever received).
 */
let t: TestServer
beforeAll(async () => {
  t = await startTestServer({ dbPath: ':memory:' })
})
afterAll(() => t.close())

const plan = async (sql: string, ...args: unknown[]) =>
  ((await t.server.ctx.engine.all(`EXPLAIN QUERY PLAN ${sql}`, ...args)) as Array<{ detail: string }>).map((r) => r.detail)

describe('query plans of the money path', () => {
  it("a referred bond's payer is looked up among the payments by source through chain_payments_source", async () => {
    const details = await plan(
      `SELECT 1 AS x FROM chain_payments p JOIN mints m ON m.id = p.mint_id WHERE p.source = ? AND p.outcome = 'activated' AND m.user_id = ? LIMIT 1`,
      '0:abc',
      1,
    )
    expect(details.join('\n')).toMatch(/SEARCH p USING INDEX chain_payments_source \(source=\? AND outcome=\?\)/)
    expect(details.join('\n')).not.toMatch(/SCAN p\b/)
  })
})
