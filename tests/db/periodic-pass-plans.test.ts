import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { periodicPass } from '../../server/periodic-pass.ts'
import { recordingEngine, type RecordedStatement } from '../support/recording-engine.ts'
import { startTestServer, T0, type TestServer } from '../server/support.ts'

/**
 * The plans SQLite makes for what the periodic pass really sends (recorded from a run on a seeded
 * database, not copied here), with no statistics, with true ones, and with statistics that make the
 * status index look like the best way to a row: every statement finds its rows on an index, the
 * batch writes named by their ids go by the primary key, and the prune finds only expired keys.
 */
let t: TestServer
let userId: bigint
beforeAll(async () => {
  t = await startTestServer({ dbPath: ':memory:', settleEveryMs: 3_600_000 })
  await t.login(9101)
  userId = (await t.server.ctx.db.one('SELECT id FROM users WHERE telegram_id = ?', 9101))!.id as bigint
})
afterAll(() => t.close())

const BOND_COLUMNS = `user_id, status, source, created_at, activated_at, ends_at, last_updated_at, total_amount,
  daily_reward, hold_bonus, collective_bonus, investment_bonus, earned_reward, max_reward, amount_ton, tariff_days`

/** `n` bonds in `status`, created at `createdAt`, ending `endsIn` seconds after T0 (one second apart). */
const seedBonds = (status: 'active' | 'pending', n: number, createdAt: number, endsIn: number) =>
  t.server.ctx.engine.run(
    `INSERT INTO mints (${BOND_COLUMNS})
     WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     SELECT ?, ?, 'balance', ?, ?, ? + i, ?, 3000000000, 7000, 0, 1000, 0, 0, 1000000000, 0, 30 FROM n`,
    n,
    userId,
    status,
    createdAt,
    createdAt,
    T0 + endsIn,
    createdAt,
  )

const seed = async () => {
  await seedBonds('active', 250, T0 - 40 * 86_400, -1_000) // due
  await seedBonds('active', 250, T0 - 86_400, 86_400) // running
  await seedBonds('pending', 450, T0 - 10 * 86_400, 0) // never paid
  await t.server.ctx.engine.run(
    `INSERT INTO idempotency (user_id, route, key, fingerprint, status_code, body, created_at, expires_at)
     WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200)
     SELECT ?, 'mint/create', 'k' || i, 'f', 200, '{}', ?, CASE WHEN i <= 1100 THEN ? ELSE ? END FROM n`,
    userId,
    T0 - 8 * 86_400,
    T0 - 86_400,
    T0 + 86_400,
  )
}

const plans = async (seen: ReadonlyArray<RecordedStatement>) => {
  const byText = new Map<string, RecordedStatement>()
  for (const s of seen) if (!/^\s*PRAGMA/i.test(s.text)) byText.set(s.text.replace(/\s+/g, ' ').trim(), s)
  return Promise.all(
    [...byText].map(async ([text, s]) => ({
      text,
      plan: ((await t.server.ctx.engine.all(`EXPLAIN QUERY PLAN ${s.text}`, ...s.params)) as Array<{ detail: string }>)
        .map((r) => r.detail)
        .join('\n'),
    })),
  )
}

const TABLES = ['mints', 'stakes', 'users', 'operations', 'idempotency', 'refresh_tokens', 'rate_limit_hits', 'outbox']

const statistics = {
  none: async () => {
    await t.server.ctx.engine.run(`CREATE TABLE IF NOT EXISTS sqlite_stat1 (tbl, idx, stat)`).catch(() => undefined)
    await t.server.ctx.engine.run('DELETE FROM sqlite_stat1')
    await t.server.ctx.engine.run('ANALYZE sqlite_schema')
  },
  true: async () => {
    await t.server.ctx.engine.run('ANALYZE')
  },
  // As if nearly every bond had a status of its own: the status index looks like the shortest way.
  misleading: async () => {
    await t.server.ctx.engine.run('DELETE FROM sqlite_stat1')
    await t.server.ctx.engine.run(`INSERT INTO sqlite_stat1 VALUES ('mints', 'mints_due', '1000000 1 1 1'), ('mints', NULL, '1000000')`)
    await t.server.ctx.engine.run('ANALYZE sqlite_schema')
  },
}

describe('the periodic pass on SQLite', () => {
  for (const [name, set] of Object.entries(statistics)) {
    it(`finds what it changes on an index, the batch writes by primary key, with ${name} statistics`, async () => {
      await t.server.ctx.engine.run(`DELETE FROM mints`)
      await t.server.ctx.engine.run(`DELETE FROM idempotency`)
      await seed()
      await set()
      const rec = recordingEngine(t.server.ctx.engine)
      const ctx = { ...t.server.ctx, db: rec.engine, engine: rec.engine }
      const result = await periodicPass(ctx, { watched: false }).run()
      // What it did, so the plans below are of statements that did their work.
      expect(result.due.completed).toBe(250)
      expect(result.expired).toBe(450)
      expect(result.pruned.idempotency).toBe(1100)
      const all = await plans(rec.seen)
      for (const { text, plan } of all) {
        for (const table of TABLES) expect(plan, text).not.toMatch(new RegExp(`\\bSCAN ${table}\\b`))
        if (/^UPDATE (mints|stakes) .* WHERE id IN/.test(text)) expect(plan, text).toMatch(/USING INTEGER PRIMARY KEY/)
        if (/^DELETE FROM idempotency/.test(text)) expect(plan, text).toMatch(/USING (COVERING )?INDEX idempotency_expiry/)
      }
      expect(all.some(({ text }) => /^DELETE FROM idempotency/.test(text))).toBe(true)
      expect(all.some(({ text }) => /^UPDATE mints .* WHERE id IN/.test(text))).toBe(true)
    })
  }
})
