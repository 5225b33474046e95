import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import type { Engine } from '../../server/db/engine.ts'
import { migrate, MIGRATIONS } from '../../server/db/migrations.ts'
import { recomputeTotals } from '../../server/domain/platform-totals.ts'
import { startTestServer, TEST_ENGINE, type TestServer } from './support.ts'

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

  it.runIf(TEST_ENGINE === 'sqlite')('the migration starts the totals from the rows already there', () => {
    const db = new Database(':memory:')
    db.defaultSafeIntegers(true)
    db.exec('CREATE TABLE schema_version (version INTEGER NOT NULL)')
    const before = MIGRATIONS.findIndex((m) => typeof m !== 'string')
    for (let v = 0; v < before; v++) {
      db.exec(MIGRATIONS[v] as string)
      db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(v + 1)
    }
    db.exec(`INSERT INTO users (id, telegram_id, name, ref_code, created_at) VALUES (1, 1, 'a', 'r1', 0), (2, 2, 'b', 'r2', 0)`)
    db.exec(`INSERT INTO mints (user_id, status, source, created_at, total_amount, daily_reward, hold_bonus, collective_bonus, investment_bonus, max_reward, amount_ton, tariff_days, paid_nano)
      VALUES (1, 'active', 'ton', 0, 7, 1, 0, 0, 0, 1, 1, 10, 9), (2, 'completed', 'ton', 0, 5, 1, 0, 0, 0, 1, 1, 10, 4)`)
    db.exec(`INSERT INTO operations (user_id, type, balance, amount, created_at, description) VALUES (2, 'bond_reward', 'balance_token', 3, 0, 'r'), (2, 'welcome', 'balance_token', 100, 0, 'w')`)
    migrate(db)
    const kept = db.prepare('SELECT SUM(users) AS users, SUM(locked) AS locked, SUM(active_bonds) AS bonds, SUM(rewards_paid) AS rewards, SUM(ton_raised) AS ton FROM platform_totals').get()
    expect(kept).toEqual({ users: 2n, locked: 7n, bonds: 1n, rewards: 3n, ton: 13n })
    // And from there the triggers follow the writes.
    db.exec(`UPDATE mints SET status = 'completed' WHERE user_id = 1`)
    db.exec(`INSERT INTO users (id, telegram_id, name, ref_code, created_at) VALUES (3, 3, 'c', 'r3', 0)`)
    expect(db.prepare('SELECT SUM(users) AS users, SUM(locked) AS locked, SUM(active_bonds) AS bonds FROM platform_totals').get()).toEqual({ users: 3n, locked: 0n, bonds: 0n })
    db.close()
  })
})
