import { setImmediate as turn } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DELETE_BATCH } from '../../server/db/bounded-delete.ts'
import { expireUnpaidBonds } from '../../server/domain/mints.ts'
import { OPTIMIZE_EVERY_S, periodicPass } from '../../server/periodic-pass.ts'
import { startTestServer, TEST_ENGINE, type Session, type TestServer } from './support.ts'

/** The periodic pass's steps as a user and an operator meet them, on the test engine (SQLite or PostgreSQL). */
let t: TestServer
beforeAll(async () => {
  t = await startTestServer({ settleEveryMs: 3_600_000 })
})
afterAll(() => t.close())

const pass = () => periodicPass(t.server.ctx, { watched: false }).run()
const userId = async (s: Session) => (await t.server.ctx.db.one('SELECT id FROM users WHERE telegram_id = ?', s.telegramId))!.id as bigint
const transfer = (s: Session, key?: string) =>
  s.call('POST', '/withdraw/transfer-from-referral-balance', { body: { token_amount: 1 }, headers: key === undefined ? {} : { 'idempotency-key': key } })

describe('the periodic pass', () => {
  it("keeps a client's Idempotency-Key answer for a week, whatever ran meanwhile, and then forgets it", async () => {
    const s = await t.login(9201)
    await t.server.admin.credit(s.telegramId, '10', 'referral_balance')
    const first = await transfer(s, 'retry-after-a-week')
    expect(first.status).toBe(200)
    t.clock.advance(6 * 86_400)
    await pass()
    // Six days later (signed in again) the same key still answers with the first transfer, and moves nothing.
    const replay = await transfer(await t.login(9201), 'retry-after-a-week')
    expect(replay.status).toBe(200)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(replay.body).toEqual(first.body)
    t.clock.advance(86_400 + 1)
    const result = await pass()
    expect(result.pruned.idempotency).toBeGreaterThanOrEqual(1)
    const again = await transfer(await t.login(9201), 'retry-after-a-week')
    expect(again.status).toBe(200)
    expect(again.headers.get('idempotent-replayed')).toBeNull()
  })

  it('prunes every expired answer however many, and none that is still kept', async () => {
    const s = await t.login(9202)
    const id = await userId(s)
    const expired = DELETE_BATCH * 2 + 7
    await t.server.ctx.engine.run(
      `INSERT INTO idempotency (user_id, route, key, fingerprint, status_code, body, created_at, expires_at)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       SELECT ?, 'mint/create', 'old-' || i, 'f', 200, '{}', ?, ? FROM n`,
      expired,
      id,
      t.clock.now - 8 * 86_400,
      t.clock.now - 1,
    )
    await t.server.ctx.engine.run(
      `INSERT INTO idempotency (user_id, route, key, fingerprint, status_code, body, created_at, expires_at) VALUES (?, 'mint/create', 'kept', 'f', 200, '{}', ?, ?)`,
      id,
      t.clock.now - 8 * 86_400,
      t.clock.now + 1,
    )
    const result = await pass()
    expect(result.pruned.idempotency).toBe(expired)
    const left = await t.server.ctx.db.all<{ key: string }>('SELECT key FROM idempotency WHERE user_id = ?', id)
    expect(left.map((r) => r.key)).toEqual(['kept'])
  })

  it('cancels every unpaid bond past its window in batches, with the event loop free between them, and tells each owner', async () => {
    const owner = await t.login(9203)
    const live = await t.socket(owner)
    const id = await userId(owner)
    // A bond made just now is not touched.
    const made = await owner.call('POST', '/mint/create', { body: { amount: 3, days: 30 } })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    const fresh = made.body.mint.id as number
    const n = 450
    await t.server.ctx.engine.run(
      `INSERT INTO mints (user_id, status, source, created_at, total_amount, daily_reward, hold_bonus, collective_bonus,
         investment_bonus, max_reward, amount_ton, tariff_days)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       SELECT ?, 'pending', 'ton', ?, 3000000000, 7000, 0, 1000, 0, 1000000000, 100000000, 30 FROM n`,
      n,
      id,
      t.clock.now - 10 * 86_400,
    )
    let turns = 0
    let counting = true
    void (async () => {
      while (counting) {
        await turn()
        turns++
      }
    })()
    const cancelled = await expireUnpaidBonds(t.server.ctx, undefined, { batch: 100 })
    counting = false
    expect(cancelled).toBe(n)
    const statuses = await t.server.ctx.db.all<{ status: string; n: bigint }>('SELECT status, COUNT(*) AS n FROM mints WHERE user_id = ? GROUP BY status ORDER BY status', id)
    expect(statuses.map((r) => [r.status, Number(r.n)])).toEqual([
      ['canceled', n],
      ['pending', 1],
    ])
    expect((await t.server.ctx.db.one('SELECT status FROM mints WHERE id = ?', fresh))!.status).toBe('pending')
    // Five batches of 100: the loop ran between them.
    expect(turns).toBeGreaterThanOrEqual(4)
    const heard = await live.next('user:mint')
    expect(heard).toBeDefined()
  })

  it.runIf(TEST_ENGINE === 'sqlite')("refreshes SQLite's statistics on its first pass and then hourly", async () => {
    const periodic = periodicPass(t.server.ctx, { watched: false })
    expect((await periodic.run()).optimized).toBe(true)
    expect((await periodic.run()).optimized).toBe(false)
    t.clock.advance(OPTIMIZE_EVERY_S)
    expect((await periodic.run()).optimized).toBe(true)
  })
})

