import { afterAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../server/main.ts'
import { testDatabase } from '../server/support.ts'
import { must, scrape } from '../observability/support.ts'

/**
 * On PostgreSQL the metrics show the transactions' connection pool: its size, its connections idle
 * and busy, and the transactions waiting for one, read from node-postgres's pool at scrape time.
 */
let s: RunningServer | null = null
/** The pool's size: AXIOM_PG_POOL, else node-postgres's 10 as the engine sets it. */
const POOL = Number(process.env.AXIOM_PG_POOL ?? 10)
afterAll(async () => s?.close())

describe('the database pool in the metrics (PostgreSQL)', () => {
  it('shows the pool of AXIOM_PG_POOL connections, busy while transactions hold them, waiting past its size', async () => {
    s = await startServer({ port: 0, dbPath: await testDatabase(), priceTickMs: 3_600_000, metrics: { port: 0, host: '127.0.0.1' } })
    const idle = await scrape(s.metricsUrl!)
    expect(must(idle, 'axiom_instance_info', { role: 'all', database: 'postgres' })).toBe(1)
    expect(must(idle, 'axiom_database_pool_connections', { state: 'max' })).toBe(POOL)
    expect(must(idle, 'axiom_database_pool_connections', { state: 'busy' })).toBe(0)
    expect(must(idle, 'axiom_database_pool_connections', { state: 'waiting' })).toBe(0)

    // Two transactions more than the pool holds, all open at once: every connection busy, two waiting.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const engine = s.ctx.engine
    const open = Array.from({ length: POOL + 2 }, () => engine.transaction(async (tx) => (await tx.one('SELECT 1 AS ok'), await held)))
    try {
      const full = await (async () => {
        for (let i = 0; i < 200; i++) {
          const m = await scrape(s!.metricsUrl!)
          if (m.samples.get('axiom_database_pool_connections{state="waiting"}') === 2) return m
          await new Promise((r) => setTimeout(r, 20))
        }
        throw new Error('the pool never filled')
      })()
      expect(must(full, 'axiom_database_pool_connections', { state: 'busy' })).toBe(POOL)
      expect(must(full, 'axiom_database_pool_connections', { state: 'idle' })).toBe(0)
    } finally {
      release()
      await Promise.all(open)
    }
    const after = await scrape(s.metricsUrl!)
    expect(must(after, 'axiom_database_pool_connections', { state: 'waiting' })).toBe(0)
    expect(must(after, 'axiom_database_pool_connections', { state: 'busy' })).toBe(0)
  })
})
