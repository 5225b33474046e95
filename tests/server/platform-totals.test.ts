import { afterAll, describe, expect, it } from 'vitest'
import type { Engine } from '../../server/db/engine.ts'
import { recomputeTotals } from '../../server/domain/platform-totals.ts'
import { startTestServer, type TestServer } from './support.ts'

const servers: TestServer[] = []
afterAll(() => Promise.all(servers.map((t) => t.close())))

describe('/stats/financial from running totals', () => {
  it('answers the figures of the rows with one statement, whatever their number', async () => {
    const t = await startTestServer({ priceTickMs: 3_600_000 })
    servers.push(t)
    const a = await t.login(8601)
    await t.login(8602)
    const mint = (await a.call('POST', '/mint/create', { body: { amount: 40, days: 10 } })).body.mint.id
    await t.server.markMintPaid(mint, 2_000_000_000n)
    const kept = (await a.call('GET', '/stats/financial')).body
    const rows = await recomputeTotals(t.server.ctx.db)
    expect(kept).toMatchObject({ total_users: Number(rows.users), active_bonds: 1, active_stakes: 0, total_locked: '40', total_ton_raised: '2' })

    const engine = t.server.ctx.engine as { -readonly [K in keyof Engine]: Engine[K] }
    const seen: string[] = []
    const saved = { one: engine.one, all: engine.all }
    for (const m of ['one', 'all'] as const) {
      const real = saved[m] as (text: string, ...p: unknown[]) => Promise<unknown>
      ;(engine as Record<string, unknown>)[m] = (text: string, ...p: unknown[]) => {
        seen.push(text)
        return real(text, ...p)
      }
    }
    try {
      expect((await a.call('GET', '/stats/financial')).status).toBe(200)
    } finally {
      Object.assign(engine, saved)
    }
    const reads = seen.filter((s) => !/rate_limit_hits|FROM settings/.test(s))
    expect(reads).toHaveLength(1)
    expect(reads[0]).toMatch(/FROM platform_totals$/)
  })
})
