import { Socket } from 'node:net'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Engine } from '../../server/db/engine.ts'
import { openPostgres } from '../../server/db/postgres-engine.ts'
import { testDatabase } from '../server/support.ts'

/**
 * Statements outside transactions share a few pipelined connections: many at once each get their own
 * answer, a failing one fails alone, and a connection the server cuts is opened again.
 */
const APP = `axiom-pipeline-${process.pid}`
let url: string
let engine: Engine
beforeAll(async () => {
  const u = new URL(await testDatabase())
  u.searchParams.set('application_name', APP)
  url = u.toString()
  engine = await openPostgres(url, { pipelines: 2 })
})
afterAll(() => engine.close())

describe('statements outside transactions, pipelined', () => {
  it('500 statements at once each get their own answer', async () => {
    const answers = await Promise.all(
      Array.from({ length: 500 }, (_, i) => engine.one<{ n: bigint; s: string }>('SELECT CAST(? AS BIGINT) * 3 AS n, CAST(? AS TEXT) AS s', i, `row ${i}`)),
    )
    answers.forEach((a, i) => expect(a).toEqual({ n: BigInt(i * 3), s: `row ${i}` }))
  })

  it('the statements of one turn of the event loop leave in one write per connection', async () => {
    await Promise.all([engine.one('SELECT 1 AS n'), engine.one('SELECT 2 AS n')])
    // Count the writes the sockets to PostgreSQL hand to the system while 40 statements go out together.
    const port = Number(new URL(url).port || 5432)
    const writes: number[] = []
    const proto = Socket.prototype as unknown as Record<'_write' | '_writev', (this: Socket, ...a: unknown[]) => unknown>
    const original = { _write: proto._write, _writev: proto._writev }
    for (const kind of ['_write', '_writev'] as const)
      proto[kind] = function (this: Socket, ...a: unknown[]) {
        if (this.remotePort === port) writes.push(this.localPort ?? 0)
        return original[kind].apply(this, a)
      }
    try {
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => engine.one<{ n: bigint }>('SELECT CAST(? AS BIGINT) + 1 AS n', i)))
      expect(answers.map((a) => a?.n)).toEqual(Array.from({ length: 40 }, (_, i) => BigInt(i + 1)))
    } finally {
      Object.assign(proto, original)
    }
    // Two pipelined connections: one write each, not one per statement.
    expect(writes.length).toBe(2)
    expect(new Set(writes).size).toBe(2)
  })

  it('a statement that fails, among others under way, fails alone', async () => {
    const replies = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) => (i === 13 ? engine.one('SELECT 1 / (? - 13) AS n', i) : engine.one<{ n: bigint }>('SELECT CAST(? AS BIGINT) AS n', i))),
    )
    replies.forEach((r, i) => {
      if (i === 13) expect(r.status === 'rejected' && (r.reason as { code?: string }).code).toBe('22012')
      else expect(r).toEqual({ status: 'fulfilled', value: { n: BigInt(i) } })
    })
  })

  it('a write and the reads after it, on any connection, see it; a transaction still commits alone', async () => {
    await engine.run("INSERT INTO settings (key, value) VALUES ('pipeline-probe', 'one')")
    const seen = await Promise.all(Array.from({ length: 6 }, () => engine.one<{ value: string }>("SELECT value FROM settings WHERE key = 'pipeline-probe'")))
    expect(seen.map((r) => r?.value)).toEqual(Array(6).fill('one'))
    await engine.transaction(async (tx) => {
      await tx.run("UPDATE settings SET value = 'two' WHERE key = 'pipeline-probe'")
      // Not committed yet: a statement outside sees the old value.
      expect((await engine.one<{ value: string }>("SELECT value FROM settings WHERE key = 'pipeline-probe'"))?.value).toBe('one')
    })
    expect((await engine.one<{ value: string }>("SELECT value FROM settings WHERE key = 'pipeline-probe'"))?.value).toBe('two')
  })

  it('after PostgreSQL cuts the connections, the next statements open new ones', async () => {
    await Promise.all([engine.one('SELECT 1 AS n'), engine.one('SELECT 2 AS n')])
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    try {
      const cut = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()', [APP])
      expect(cut.rowCount).toBeGreaterThanOrEqual(2)
    } finally {
      await admin.end()
    }
    // The cut reaches the client when its sockets close; a statement sent before that fails with its
    // connection, which is then dropped. Wait until a statement on each connection is answered.
    await vi.waitFor(() => Promise.all([engine.one('SELECT 1 AS n'), engine.one('SELECT 2 AS n')]), { timeout: 5_000, interval: 20 })
    const again = await Promise.all(Array.from({ length: 10 }, (_, i) => engine.one<{ n: bigint }>('SELECT CAST(? AS BIGINT) AS n', i)))
    expect(again.map((r) => r?.n)).toEqual(Array.from({ length: 10 }, (_, i) => BigInt(i)))
  })
})
