import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type Session, type TestServer } from './support.ts'

/**
 * A farming link is funded from one of three balances: the referral balance (from_ref_balance),
 * the task balance (from_task_balance), or the main balance when neither flag is set.
 */
let t: TestServer
beforeAll(async () => {
  t = await startTestServer()
})
afterAll(() => t.close())

let nextId = 9300
/** A new user: 100 welcome tokens on the main balance, and the referral and task balances given. */
const newUser = async (referral = '0', task = '0'): Promise<Session> => {
  const id = nextId++
  const s = await t.login(id)
  if (referral !== '0') await t.server.admin.credit(id, referral, 'referral_balance')
  if (task !== '0') await t.server.admin.credit(id, task, 'task_balance')
  return s
}

const MAIN = { from_ref_balance: false, from_task_balance: false }
const link = (flags: typeof MAIN, amount: number | string, count = 1) => ({
  amount,
  days: 10,
  count_activations: count,
  ...flags,
  is_multilink: count > 1,
  is_for_me: false,
})
const balances = async (s: Session) => {
  const me = (await s.call('GET', '/user/me')).body
  return { main: me.balance_token, referral: me.referral_balance, task: me.task_balance }
}

describe('a link funded from the main balance (both flags false)', () => {
  it('GET /farming/plans and /farming/calculate report the main balance as available', async () => {
    const s = await newUser('7', '3')
    const plans = (await s.call('GET', '/farming/plans', { query: MAIN })).body
    expect(plans.map((p: { available: string }) => p.available)).toEqual(plans.map(() => '100'))
    // No flags at all is the main balance too.
    expect((await s.call('GET', '/farming/plans')).body[0].available).toBe('100')
    expect((await s.call('GET', '/farming/plans', { query: { from_ref_balance: true, from_task_balance: false } })).body[0].available).toBe('7')
    expect((await s.call('GET', '/farming/plans', { query: { from_ref_balance: false, from_task_balance: true } })).body[0].available).toBe('3')

    const quote = (await s.call('GET', '/farming/calculate', { query: { amount: 2, freeze_days: 10, ...MAIN } })).body
    expect(quote).toMatchObject({ amount_token: '2', tariff_days: 10, available: '100' })
    expect((await s.call('GET', '/farming/calculate', { query: { amount: 2, freeze_days: 10, from_task_balance: true } })).body.available).toBe('3')
  })

  it('POST /farming/create takes amount × activations from balance_token only, and an activation gives the bond', async () => {
    const s = await newUser('7', '3')
    const res = await s.call('POST', '/farming/create', { body: link(MAIN, '2.5', 3) })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toMatchObject({ amount: '2.5', count_activations: 3, from_ref_balance: false, from_task_balance: false, status: 'active' })
    expect(await balances(s)).toEqual({ main: '92.5', referral: '7', task: '3' })
    const ops = (await s.call('GET', '/operations/history')).body.items
    expect(ops[0]).toMatchObject({ type: 'farming_fund', amount: '-7.5' })

    const friend = await newUser()
    const act = await friend.call('GET', '/farming/activation-status', { query: { activation_code: res.body.activation_code } })
    expect(act.body).toMatchObject({ status: 'ACTIVE', mint_details: { amount_token: '2.5', tariff_days: 10 } })

    // Cancelling refunds the two unused activations to the main balance.
    const cancelled = await s.call('POST', `/farming/${res.body.id}/cancel`)
    expect(cancelled.body.status).toBe('revoked')
    expect(await balances(s)).toEqual({ main: '97.5', referral: '7', task: '3' })
  })

  it('refuses a fund above the main balance with a message naming it, and changes nothing', async () => {
    const s = await newUser('500', '500')
    const before = await t.server.admin.snapshot()
    const res = await s.call('POST', '/farming/create', { body: link(MAIN, 40, 3) })
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe('Insufficient balance: the link needs 120 AXIOM from your main balance, which holds 100 AXIOM')
    expect(await t.server.admin.snapshot()).toBe(before)
  })

  it('spends exact nano-units: the whole balance to the last nano, not one more', async () => {
    const s = await newUser()
    await t.server.admin.credit(s.telegramId, '0.000000001')
    const over = await s.call('POST', '/farming/create', { body: link(MAIN, '33.333333334', 3) })
    expect(over.status).toBe(400)
    expect(over.body.msg).toContain('needs 100.000000002 AXIOM from your main balance, which holds 100.000000001 AXIOM')
    const exact = await s.call('POST', '/farming/create', { body: link(MAIN, '33.333333333', 3) })
    expect(exact.status, JSON.stringify(exact.body)).toBe(200)
    expect((await balances(s)).main).toBe('0.000000002')
  })

  it('two links at once that together exceed the balance: one is made, the other refused', async () => {
    const s = await newUser()
    // Two intents (two keys), not one request sent twice.
    const replies = await Promise.all(
      ['first', 'second'].map((key) => s.call('POST', '/farming/create', { body: link(MAIN, 60), headers: { 'idempotency-key': key } })),
    )
    expect(replies.map((r) => r.status).sort()).toEqual([200, 400])
    expect((await balances(s)).main).toBe('40')
  })
})

describe('the other sources and the flags', () => {
  it('referral and task links leave the main balance alone, and say which balance fell short', async () => {
    const s = await newUser('10', '4')
    expect((await s.call('POST', '/farming/create', { body: link({ from_ref_balance: true, from_task_balance: false }, 5, 2) })).status).toBe(200)
    expect((await s.call('POST', '/farming/create', { body: link({ from_ref_balance: false, from_task_balance: true }, 4) })).status).toBe(200)
    expect(await balances(s)).toEqual({ main: '100', referral: '0', task: '0' })
    const poor = await s.call('POST', '/farming/create', { body: link({ from_ref_balance: false, from_task_balance: true }, 1) })
    expect(poor).toMatchObject({ status: 400, body: { msg: 'Insufficient balance: the link needs 1 AXIOM from your task balance, which holds 0 AXIOM' } })
  })

  it('both flags at once are refused on plans, calculate and create', async () => {
    const s = await newUser('10', '10')
    const both = { from_ref_balance: true, from_task_balance: true }
    const before = await t.server.admin.snapshot()
    for (const res of [
      await s.call('GET', '/farming/plans', { query: both }),
      await s.call('GET', '/farming/calculate', { query: { amount: 1, freeze_days: 10, ...both } }),
      await s.call('POST', '/farming/create', { body: link(both, 1) }),
    ])
      expect(res).toMatchObject({ status: 422, body: { msg: 'Choose at most one of from_ref_balance and from_task_balance' } })
    expect(await t.server.admin.snapshot()).toBe(before)
  })
})
