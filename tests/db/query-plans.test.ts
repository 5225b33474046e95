import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { operationsPage } from '../../server/domain/operation-texts.ts'
import { paidBond, startTestServer, type TestServer } from '../server/support.ts'
import { recordingEngine } from '../support/recording-engine.ts'

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

  it("a page of the operations history reads its rows' bond and stake numbers by id, not all of the user's bonds", async () => {
    const user = await t.login(9401)
    const bonds: number[] = []
    for (let i = 0; i < 4; i++) {
      bonds.push(await paidBond(t, user, String(3 + i)))
      if (i === 1) expect((await user.call('POST', '/staking/create', { body: { mint_id: bonds[1] } })).status).toBe(200)
    }
    const userId = (await t.server.ctx.db.one<{ user_id: bigint }>('SELECT user_id FROM mints WHERE id = ?', bonds[0]))!.user_id
    // Every statement the page runs, written down as the engine runs it (tests/support/recording-engine.ts).
    const { engine, seen } = recordingEngine(t.server.ctx.engine)
    const result = await operationsPage({ ...t.server.ctx, db: engine, engine }, userId, { limit: 2, offset: 2, order: 'DESC' })
    // Page 2 at 2 a page (bonds #4 and #3 bought on page 1): bond #2 staked as stake #1, and bond #2 bought.
    expect(result.rows.map((r) => r.type)).toEqual(['stake', 'bond_paid'])
    expect([...result.numbers.mints.values()]).toEqual([2])
    expect([...result.numbers.stakes.values()]).toEqual([1])
    const numbered = seen.filter((s) => /\bFROM (mints|stakes)\b/.test(s.text))
    expect(numbered.map((s) => s.text.match(/\bFROM (mints|stakes)\b/)![1])).toEqual(['mints', 'stakes'])
    for (const s of numbered) {
      const details = (await plan(s.text, ...s.params)).join('\n')
      // Each bond or stake named is found by its id; none of the user's other bonds is read.
      expect(details).toMatch(/^SEARCH \w+ USING INTEGER PRIMARY KEY \(rowid=\?\)$/)
    }
  })
})
