import { describe, expect, it } from 'vitest'
import type { Engine } from '../../server/db/engine.ts'
import { userWire } from '../../server/http/wire-format.ts'
import { nano, paidBond, serversClosedAfterAll, TEST_ENGINE } from './support.ts'

/**
 * GET /user/me settles the user's bonds and stakes before answering: a position whose term ended is
 * paid out by this call alone, a running one is not written (its reward is computed when read), and a call with
 * nothing to write costs one statement and no transaction.
 */
const server = serversClosedAfterAll()

describe('GET /user/me settles on read', () => {
  it('a bond and a stake whose terms ended are paid out by /user/me alone, once', async () => {
    const t = await server()
    let me = await t.login(6001)
    await paidBond(t, me, '100')
    const staked = await paidBond(t, me, '200')
    expect((await me.call('POST', '/staking/create', { body: { mint_id: staked } })).status).toBe(200)
    const bond = (await me.call('GET', '/mint/')).body.items.find((m: { status: string }) => m.status === 'active')
    const stake = (await me.call('GET', '/staking/')).body.items[0]
    expect(stake.status).toBe('active')
    const before = (await me.call('GET', '/user/me')).body

    t.clock.advance(40 * 86_400)
    me = await t.login(6001)
    const after = await me.call('GET', '/user/me')
    expect(after.status).toBe(200)
    const paid = nano(bond.total_amount) + nano(bond.max_reward) + nano(stake.total_amount) + nano(stake.max_reward)
    expect(nano(after.body.balance_token)).toBe(nano(before.balance_token) + paid)
    // Everything else the answer says is what it said before.
    expect({ ...after.body, balance_token: before.balance_token }).toEqual(before)
    // Asked again: the same answer, nothing paid twice.
    expect((await me.call('GET', '/user/me')).body).toEqual(after.body)
    expect((await me.call('GET', '/mint/')).body.items.find((m: { id: number }) => m.id === bond.id).status).toBe('completed')
    expect((await me.call('GET', '/staking/')).body.items[0].status).toBe('completed')
  })

  it('mid-term, /user/me and the list write nothing: the list shows the reward earned so far, computed when read', async () => {
    const t = await server()
    let me = await t.login(6002)
    const id = await paidBond(t, me, '300')
    const activated = t.clock.now
    const before = (await me.call('GET', '/user/me')).body
    t.clock.advance(3 * 86_400 + 17)
    me = await t.login(6002)
    expect((await me.call('GET', '/user/me')).body).toEqual(before)
    const listed = (await me.call('GET', '/mint/')).body.items.find((m: { id: number }) => m.id === id)
    const stored = await t.server.ctx.db.one<{ earned_reward: bigint; last_updated_at: bigint }>(
      'SELECT earned_reward, last_updated_at FROM mints WHERE id = ?',
      id,
    )
    expect(stored).toEqual({ earned_reward: 0n, last_updated_at: BigInt(activated) })
    // 300 × 0.8 % a day for 3 days and 17 s, floored to the nano.
    expect(nano(listed.earned_reward)).toBe((300_000_000_000n * 8_000n * (3n * 86_400n + 17n)) / (100n * 10_000n * 86_400n))
    expect(listed.last_updated_at).toBe(t.clock.now)
  })

  it('with nothing to write, /user/me reads the user, whether anything is due and the collective bonus in one statement and opens no transaction', async () => {
    // No price ticks (on PostgreSQL each is announced with a statement) while statements are counted.
    const t = await server({ priceTickMs: 3_600_000 })
    const me = await t.login(6003)
    await paidBond(t, me, '50')
    await paidBond(t, me, '60')
    expect((await me.call('GET', '/user/me')).status).toBe(200)
    // Counts what the server sends to its engine while one more /user/me is answered.
    const engine = t.server.ctx.engine as { -readonly [K in keyof Engine]: Engine[K] }
    const seen: string[] = []
    let transactions = 0
    const saved = { one: engine.one, all: engine.all, run: engine.run, insert: engine.insert, transaction: engine.transaction }
    for (const m of ['one', 'all', 'run', 'insert'] as const) {
      const real = saved[m] as (text: string, ...p: unknown[]) => Promise<unknown>
      ;(engine as Record<string, unknown>)[m] = (text: string, ...p: unknown[]) => {
        seen.push(text)
        return real(text, ...p)
      }
    }
    engine.transaction = (fn) => {
      transactions++
      return saved.transaction(fn)
    }
    try {
      expect((await me.call('GET', '/user/me')).status).toBe(200)
    } finally {
      Object.assign(engine, saved)
    }
    expect(transactions).toBe(0)
    // The request counts and the maintenance flag (on SQLite a read of its own, PostgreSQL keeps it
    // in memory) aside: one statement, with the collective bonus in it.
    const settingReads = seen.filter((s) => /^SELECT value FROM settings/.test(s))
    const reads = seen.filter((s) => !/rate_limit_hits/.test(s) && !settingReads.includes(s))
    expect(reads).toHaveLength(1)
    expect(reads[0]).toMatch(/FROM users/)
    expect(reads[0]).toMatch(/collective_bonus/)
    expect(settingReads).toHaveLength(TEST_ENGINE === 'postgres' ? 0 : 1)
    if (TEST_ENGINE === 'postgres') expect(seen.filter((s) => /refresh_tokens/.test(s))).toEqual([])
  })

  it("answers the platform's collective bonus as the operator last set it, on every engine at once", async () => {
    const t = await server({ priceTickMs: 3_600_000 })
    const me = await t.login(6004)
    expect((await me.call('GET', '/user/me')).body.collective_bonus).toBe('0.1')
    await t.server.admin.setCollectiveBonus('0.25')
    expect((await me.call('GET', '/user/me')).body.collective_bonus).toBe('0.25')
    await t.server.admin.setCollectiveBonus('0')
    expect((await me.call('GET', '/user/me')).body.collective_bonus).toBe('0')
  })

  it('answers every field the wire format makes, each as it makes it (the compiled serializer drops nothing, adds nothing)', async () => {
    const t = await server({ priceTickMs: 3_600_000 })
    const me = await t.login(6005)
    await paidBond(t, me, '70')
    const body = (await me.call('GET', '/user/me')).body
    const row = await t.server.ctx.db.one<Record<string, string | bigint | null>>(
      'SELECT turnover, community, balance_token, task_balance, referral_balance, hold_bonus, investment_bonus, locked_nano, ref_code, wallet_address, wallet_network FROM users WHERE id = (SELECT user_id FROM mints ORDER BY id DESC LIMIT 1)',
    )
    const big = (v: string | bigint | null) => (v === null || typeof v === 'string' ? v : BigInt(v))
    const made = userWire(Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, big(v)])) as never, 1_000n)
    expect(body).toEqual(JSON.parse(JSON.stringify(made)))
    // The fields written out here rather than taken from the wire code: the spec's User data, with the
    // backend's two additions (locked_balance, the welcome tokens that cannot be sold; wallet_address).
    expect(Object.keys(body).sort()).toEqual(
      ['balance_token', 'collective_bonus', 'community_participation', 'hold_bonus', 'investment_bonus', 'locked_balance', 'ref', 'ref_code', 'referral_balance', 'task_balance', 'wallet_address'].sort(),
    )
    expect(Object.keys(body.ref).sort()).toEqual(['level', 'turnover'])
    expect(body).toMatchObject({ community_participation: false, wallet_address: null, ref: { level: 0 } })
  })
})
