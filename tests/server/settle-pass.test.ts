import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { rewardAt } from '../../core/domain/reward.ts'
import { openEngine } from '../../server/db/open-engine.ts'
import { completeDuePositions } from '../../server/domain/settle-pass.ts'
import { nano, paidBond, serversClosedAfterAll, startTestServer, T0, TEST_ENGINE, testDatabase, type TestServer } from './support.ts'

/**
 * The periodic pass completes only the positions whose term has ended; a running position is never
 * written (its reward is computed when read), and shutdown stops a pass between two batches.
 */
const server = serversClosedAfterAll()

const rowsOf = (t: TestServer, table: string, where: string, ...p: unknown[]) =>
  t.server.ctx.db.all(`SELECT * FROM ${table} WHERE ${where} ORDER BY id`, ...p)

/** `n` active bonds of `userId` whose terms ended before T0 (3 tokens each, 1 token of reward). */
/** `n` due bonds of `userId`, each numbered among its owner's as an insert numbers it (user_seq, after the user's last). */
const seedDueBonds = (db: { run(text: string, ...p: unknown[]): Promise<unknown> }, userId: bigint, n: number) =>
  db.run(
    `INSERT INTO mints (user_id, status, source, created_at, activated_at, ends_at, last_updated_at, total_amount,
       daily_reward, hold_bonus, collective_bonus, investment_bonus, earned_reward, max_reward, amount_ton, tariff_days, user_seq)
     WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     SELECT ?, 'active', 'balance', ?, ?, ? - i, ?, 3000000000, 7000, 0, 1000, 0, 0, 1000000000, 0, 30,
       (SELECT COALESCE(MAX(user_seq), 0) FROM mints WHERE user_id = ?) + i FROM n`,
    n,
    userId,
    T0 - 40 * 86_400,
    T0 - 40 * 86_400,
    T0,
    T0 - 40 * 86_400,
    userId,
  )

describe('the periodic pass', () => {
  it('completes only the due positions and writes no row of a running one, even after a collective bonus change', async () => {
    const t = await server()
    const due = await t.login(8101)
    const dueBond = await paidBond(t, due, '100', 30)
    t.clock.advance(20 * 86_400)
    const running = await t.login(8102)
    const runningBond = await paidBond(t, running, '200', 30)
    const staked = await paidBond(t, running, '150', 30)
    expect((await running.call('POST', '/staking/create', { body: { mint_id: staked } })).status).toBe(200)
    await t.server.admin.setCollectiveBonus('0.5')
    t.clock.advance(11 * 86_400)

    const runningUser = await t.server.ctx.db.one('SELECT id FROM users WHERE telegram_id = ?', 8102)
    const untouched = async () => ({
      mints: await rowsOf(t, 'mints', 'user_id = ?', runningUser!.id),
      stakes: await rowsOf(t, 'stakes', 'user_id = ?', runningUser!.id),
      user: await rowsOf(t, 'users', 'id = ?', runningUser!.id),
      ops: await rowsOf(t, 'operations', 'user_id = ?', runningUser!.id),
    })
    const before = await untouched()
    const dueUser = (await t.server.ctx.db.one('SELECT id, balance_token FROM users WHERE telegram_id = ?', 8101))!
    const result = await completeDuePositions(t.server.ctx)
    expect(result).toMatchObject({ completed: 1, aborted: false })
    expect(await untouched()).toEqual(before)
    const bond = (await rowsOf(t, 'mints', 'id = ?', dueBond))[0]!
    expect(bond.status).toBe('completed')
    expect(bond.earned_reward).toBe(bond.max_reward)
    const paid = (await t.server.ctx.db.one('SELECT balance_token FROM users WHERE id = ?', dueUser.id))!
    expect((paid.balance_token as bigint) - (dueUser.balance_token as bigint)).toBe((bond.total_amount as bigint) + (bond.max_reward as bigint))
    // The running bond still reads its reward as of now, computed rather than stored.
    const listed = (await (await t.login(8102)).call('GET', '/mint/')).body.items.find((m: { id: number }) => m.id === runningBond)
    expect(listed.last_updated_at).toBe(t.clock.now)
    expect(nano(listed.earned_reward)).toBe((200_000_000_000n * 8_000n * 11n * 86_400n) / (100n * 10_000n * 86_400n))
    expect(listed.collective_bonus).toBe('0.1')
  })

  it('completes due positions in keyset batches, each once, and pays each exactly once', async () => {
    const t = await server({ settleEveryMs: 3_600_000 })
    await t.login(8201)
    const user = (await t.server.ctx.db.one('SELECT id, balance_token FROM users WHERE telegram_id = ?', 8201))!
    await seedDueBonds(t.server.ctx.engine, user.id as bigint, 25)
    // One more, not due yet.
    await t.server.ctx.engine.run(
      `INSERT INTO mints (user_id, status, source, created_at, activated_at, ends_at, last_updated_at, total_amount,
         daily_reward, hold_bonus, collective_bonus, investment_bonus, earned_reward, max_reward, amount_ton, tariff_days)
       VALUES (?, 'active', 'balance', ?, ?, ?, ?, 3000000000, 7000, 0, 1000, 0, 0, 1000000000, 0, 30)`,
      user.id,
      T0,
      T0,
      T0 + 1,
      T0,
    )
    const result = await completeDuePositions(t.server.ctx, { batch: 4 })
    expect(result.completed).toBe(25)
    // 25 due bonds in batches of 4 (7 batches, the last short) and one empty batch of stakes; on
    // PostgreSQL the other half of the users' stream finds one empty batch of each.
    expect(result.batches).toBe(TEST_ENGINE === 'postgres' ? 10 : 8)
    const after = (await t.server.ctx.db.one('SELECT balance_token FROM users WHERE id = ?', user.id))!
    expect((after.balance_token as bigint) - (user.balance_token as bigint)).toBe(25n * 4_000_000_000n)
    expect((await completeDuePositions(t.server.ctx)).completed).toBe(0)
    const left = await t.server.ctx.db.all(`SELECT ends_at FROM mints WHERE user_id = ? AND status = 'active'`, user.id)
    expect(left).toEqual([{ ends_at: BigInt(T0 + 1) }])
    // The user is told of each completed bond once, in the bot's chat (the outbox).
    const notices = await t.server.ctx.db.all(`SELECT kind, payload FROM outbox WHERE user_id = ? ORDER BY id`, user.id)
    expect(notices.filter((n) => n.kind === 'bond_completed')).toHaveLength(25)
    expect(new Set(notices.map((n) => (JSON.parse(String(n.payload)) as { mint_id: number }).mint_id)).size).toBe(25)
    // Each named by the user's own number, as the app and the bot show it: their first bond is #1.
    const numbers = notices.map((n) => (JSON.parse(String(n.payload)) as { number: number }).number).sort((a, b) => a - b)
    expect(numbers).toEqual(Array.from({ length: 25 }, (_, i) => i + 1))
  })

  it('runs its batches two at a time on PostgreSQL, over disjoint users, and pays every position once while the owners read theirs', async () => {
    const t = await server({ settleEveryMs: 3_600_000 })
    const owners: Array<{ id: bigint; before: bigint; session: Awaited<ReturnType<TestServer['login']>> }> = []
    for (const telegramId of [8601, 8602, 8603, 8604, 8605, 8606]) {
      const session = await t.login(telegramId)
      const row = (await t.server.ctx.db.one('SELECT id, balance_token FROM users WHERE telegram_id = ?', telegramId))!
      owners.push({ id: row.id as bigint, before: row.balance_token as bigint, session })
      await seedDueBonds(t.server.ctx.engine, row.id as bigint, 9)
    }
    expect(new Set(owners.map((o) => o.id % 2n)).size).toBe(2)
    // The real engine, counting the transactions open at once.
    let open = 0
    let most = 0
    const engine = t.server.ctx.engine
    const counting = {
      ...engine,
      transaction: async <T,>(fn: Parameters<typeof engine.transaction<T>>[0], options?: Parameters<typeof engine.transaction<T>>[1]) => {
        most = Math.max(most, ++open)
        try {
          return await engine.transaction(fn, options)
        } finally {
          open--
        }
      },
    } as typeof engine
    // The owners read their bonds meanwhile (a read settles a due position of its own: the same rows).
    const [result] = await Promise.all([
      completeDuePositions({ ...t.server.ctx, engine: counting, db: counting }, { batch: 2 }),
      ...owners.map((o) => o.session.call('GET', '/api/mint/')),
    ])
    expect(most).toBe(TEST_ENGINE === 'postgres' ? 2 : 1)
    expect(result.completed).toBeLessThanOrEqual(54)
    for (const o of owners) {
      const after = (await t.server.ctx.db.one<{ balance_token: bigint }>('SELECT balance_token FROM users WHERE id = ?', o.id))!
      // Each of the 9 bonds paid once: principal 3 and reward 1, whichever of the pass and the read completed it.
      expect(after.balance_token - o.before, `user ${o.id}`).toBe(9n * 4_000_000_000n)
      const ops = (await t.server.ctx.db.one<{ n: bigint }>(`SELECT COUNT(*) AS n FROM operations WHERE user_id = ? AND type IN ('bond_principal', 'bond_reward')`, o.id))!.n
      expect(ops).toBe(18n)
      const active = (await t.server.ctx.db.one<{ n: bigint }>(`SELECT COUNT(*) AS n FROM mints WHERE user_id = ? AND status = 'active'`, o.id))!.n
      expect(active).toBe(0n)
    }
  })

  it('stops between batches when its signal aborts', async () => {
    const t = await server({ settleEveryMs: 3_600_000 })
    await t.login(8301)
    const user = (await t.server.ctx.db.one('SELECT id FROM users WHERE telegram_id = ?', 8301))!
    await seedDueBonds(t.server.ctx.engine, user.id as bigint, 10)
    const stop = new AbortController()
    const ctx = { ...t.server.ctx, now: () => (stop.abort(), t.clock.now) }
    const result = await completeDuePositions(ctx, { batch: 3, signal: stop.signal })
    expect(result).toEqual({ completed: 0, batches: 0, aborted: true })
  })

  it('shutdown during a long pass ends within 5 s and leaves the rest for the next pass', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'axiom-settle-'))
    const where = await testDatabase(join(dir, 'db.sqlite'))
    const t = await startTestServer({ dbPath: where, settleEveryMs: 20 })
    await t.login(8401)
    const user = (await t.server.ctx.db.one('SELECT id FROM users WHERE telegram_id = ?', 8401))!
    const total = 40_000n
    await seedDueBonds(t.server.ctx.engine, user.id as bigint, Number(total))
    const completed = async (db: { one: TestServer['server']['ctx']['db']['one'] }) =>
      (await db.one<{ n: bigint }>(`SELECT COUNT(*) AS n FROM mints WHERE status = 'completed' AND user_id = ?`, user.id))!.n
    // The server's own timer runs the pass; close() is asked for once it is under way.
    const deadline = Date.now() + 10_000
    while ((await completed(t.server.ctx.db)) === 0n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5))
    expect(await completed(t.server.ctx.db)).toBeGreaterThan(0n)
    const started = Date.now()
    await t.close()
    expect(Date.now() - started).toBeLessThan(5_000)
    const engine = await openEngine(where)
    try {
      const done = await completed(engine)
      expect(done).toBeLessThan(total)
      // What was completed was paid once: principal and reward, one operation each.
      const ops = (await engine.one<{ n: bigint }>(`SELECT COUNT(*) AS n FROM operations WHERE user_id = ? AND type IN ('bond_principal', 'bond_reward')`, user.id))!.n
      expect(ops).toBe(2n * done)
    } finally {
      await engine.close()
    }
  })
})

describe('rewards read', () => {
  it('show, at any later moment, what the app showed from the values the old 30 s pass stored (§4 rules)', async () => {
    const t = await server({ settleEveryMs: 3_600_000 })
    let me = await t.login(8501)
    await t.server.admin.credit(8501, '100000')
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2_000 }),
        fc.constantFrom(30, 60, 90),
        fc.integer({ min: 0, max: 100 * 86_400 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 600 }),
        async (amount, days, sinceStart, sincePass, clientLater) => {
          const id = await paidBond(t, me, String(amount), days)
          const row = (await rowsOf(t, 'mints', 'id = ?', id))[0]!
          const start = t.clock.now
          // The old pass stored the reward at `passAt`; the app reads at `readAt` and shows at `shownAt`.
          const passAt = start + sinceStart
          const readAt = passAt + sincePass
          const shownAt = readAt + clientLater
          t.clock.now = readAt
          me = await t.login(8501)
          const listed = (await me.call('GET', '/mint/', { query: { limit: 1 } })).body.items[0]
          expect(listed.id).toBe(id)
          const endsAt = Number(row.ends_at)
          if (readAt >= endsAt) {
            expect(listed.status).toBe('completed')
            return
          }
          // What the old pass stored at passAt: the reward from the start, in nano, and last_updated_at = passAt.
          const percent = (row.daily_reward as bigint) + (row.hold_bonus as bigint) + (row.collective_bonus as bigint) + (row.investment_bonus as bigint)
          const oldEarned = ((row.total_amount as bigint) * percent * BigInt(passAt - start)) / (100n * 10_000n * 86_400n)
          const shown = (r: Record<string, unknown>) =>
            rewardAt(
              {
                id: Number(r.id),
                status: 'active',
                created_at: Number(r.created_at),
                last_updated_at: Number(r.last_updated_at),
                total_amount: Number(r.total_amount),
                daily_reward: Number(r.daily_reward),
                hold_bonus: Number(r.hold_bonus),
                collective_bonus: Number(r.collective_bonus),
                investment_bonus: Number(r.investment_bonus),
                earned_reward: Number(r.earned_reward),
                max_reward: Number(r.max_reward),
              } as Parameters<typeof rewardAt>[0],
              shownAt,
            )
          const old = shown({ ...listed, earned_reward: Number(oldEarned) / 1e9, last_updated_at: passAt })
          expect(Math.abs(shown(listed) - old)).toBeLessThanOrEqual(2.1e-9)
        },
      ),
      { numRuns: 40 },
    )
  })
})
