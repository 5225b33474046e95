import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SOME_ADDRESS, startTestServer, type Session, type TestServer } from './support.ts'

/**
 * Given tokens (the welcome balance and task rewards) fund bonds and links but are never sold,
 * whatever path they take. Everything here goes over HTTP to the real backend.
 */

const LOCKED_MSG = /^Welcome tokens and task rewards can be used for bonds but cannot be sold: you can sell up to 0 AXIOM from your main balance$/
/** The news task's link and a tiny PNG: what the link and photo tasks take as proof. */
const NEWS_URL = 'https://t.me/axiom_news'
const PHOTO = `data:image/png;base64,${Buffer.from('\x89PNG\r\n\x1a\nfake').toString('base64')}`

let t: TestServer
beforeAll(async () => {
  t = await startTestServer()
})
afterAll(() => t.close())

const ok = (res: { status: number; body: unknown }) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body as any
}

/** Claims the link task (3 AXIOM) and the photo task (10 AXIOM) into the task balance. */
const claimTasks = async (s: Session) => {
  for (const [id, proof] of [[2, { link: NEWS_URL }], [3, { photo: PHOTO }]] as const) {
    ok(await s.call('POST', '/task/start', { body: { task_id: id } }))
    ok(await s.call('POST', '/task/validate', { body: { task_id: id, ...proof } }))
    ok(await s.call('POST', '/task/claim', { body: { task_id: id } }))
  }
  expect(ok(await s.call('GET', '/user/me')).task_balance).toBe('13')
}

const forMeLink = (s: Session, amount: number) =>
  s.call('POST', '/farming/create', { body: { amount, days: 10, count_activations: 1, is_multilink: false, is_for_me: true, from_task_balance: true } })

const activate = async (s: Session, code: string) => {
  const a = ok(await s.call('GET', '/farming/activation-status', { query: { activation_code: code } }))
  expect(a.status).toBe('ACTIVE')
  return newestBond(s)
}

/** The id of the user's newest bond (the activation's answer names its terms, not its id). */
const newestBond = async (s: Session): Promise<number> => {
  const items = ok(await s.call('GET', '/mint/')).items as Array<{ id: number }>
  return Math.max(...items.map((m) => m.id))
}

const sell = (s: Session, amount: string) => s.call('POST', '/withdraw/create', { body: { from_ref_balance: false, token_amount: amount, address: SOME_ADDRESS } })

describe('task rewards are given tokens', () => {
  it('task reward → own link → activate → cancel the bond: the 90 % comes back locked, nothing can be sold', async () => {
    const s = await t.login(71_001)
    await claimTasks(s)
    const link = ok(await forMeLink(s, 13))
    expect(ok(await s.call('GET', '/user/me'))).toMatchObject({ task_balance: '0', balance_token: '100', locked_balance: '100' })
    const mintId = await activate(s, link.activation_code)
    ok(await s.call('POST', `/mint/${mintId}/cancel`))
    const me = ok(await s.call('GET', '/user/me'))
    // 13 less the 10 % penalty (1.3) is back on the main balance, all of it locked with the welcome tokens.
    expect(me).toMatchObject({ balance_token: '111.7', locked_balance: '111.7', task_balance: '0' })
    const res = await sell(s, '11.7')
    expect(res.status).toBe(400)
    expect(res.body.msg).toMatch(LOCKED_MSG)
    expect(ok(await s.call('GET', '/withdraw/history')).total).toBe(0)
  })

  it('at the end of the term the principal comes back locked and only the reward is free', async () => {
    let s = await t.login(71_002)
    await claimTasks(s)
    await activate(s, ok(await forMeLink(s, 13)).activation_code)
    t.clock.advance(11 * 86_400)
    s = await t.login(71_002)
    const me = ok(await s.call('GET', '/user/me'))
    expect(me.locked_balance).toBe('113')
    const reward = Number(me.balance_token) - 113
    // 13 × 0.5 % × 10 days, plus the collective bonus: under a token, so under the 1 AXIOM minimum sale.
    expect(reward).toBeGreaterThan(0)
    const res = await sell(s, '1')
    expect(res.status).toBe(400)
    expect(res.body.msg).toMatch(/cannot be sold: you can sell up to [\d.]+ AXIOM/)
  })

  it('a cancelled task-funded link refunds to the task balance; a shared one gives its friend a locked bond', async () => {
    const s = await t.login(71_003)
    await claimTasks(s)
    const link = ok(await forMeLink(s, 5))
    ok(await s.call('POST', `/farming/${link.id}/cancel`))
    expect(ok(await s.call('GET', '/user/me'))).toMatchObject({ task_balance: '13', balance_token: '100', locked_balance: '100' })

    const shared = ok(
      await s.call('POST', '/farming/create', { body: { amount: 13, days: 10, count_activations: 1, is_multilink: false, is_for_me: false, from_task_balance: true } }),
    )
    const friend = await t.login(71_004)
    const mintId = await activate(friend, shared.activation_code)
    ok(await friend.call('POST', `/mint/${mintId}/cancel`))
    expect(ok(await friend.call('GET', '/user/me'))).toMatchObject({ balance_token: '111.7', locked_balance: '111.7' })
    expect((await sell(friend, '11.7')).body.msg).toMatch(LOCKED_MSG)
  })

  it('the task balance itself has no way out but bonds: no sale, no move to the main balance', async () => {
    const s = await t.login(71_005)
    await claimTasks(s)
    // A sale takes the main or the referral balance only; the task balance is neither.
    const res = await s.call('POST', '/withdraw/create', { body: { from_ref_balance: false, from_task_balance: true, token_amount: '13', address: SOME_ADDRESS } })
    expect(res.status).toBe(400)
    expect(res.body.msg).toMatch(LOCKED_MSG)
    // The only move is from the referral balance, which holds nothing here.
    expect((await s.call('POST', '/withdraw/transfer-from-referral-balance', { body: { token_amount: '13' } })).status).toBe(400)
    expect(ok(await s.call('GET', '/user/me'))).toMatchObject({ task_balance: '13', balance_token: '100', referral_balance: '0' })
  })

  it('under the withdrawable policy given tokens are ordinary tokens, task rewards too', async () => {
    const open = await startTestServer({ welcomePolicy: 'withdrawable' })
    try {
      const s = await open.login(71_006)
      await claimTasks(s)
      const code = ok(await forMeLink(s, 13)).activation_code
      expect(ok(await s.call('GET', '/farming/activation-status', { query: { activation_code: code } })).status).toBe('ACTIVE')
      ok(await s.call('POST', `/mint/${await newestBond(s)}/cancel`))
      expect(ok(await s.call('GET', '/user/me'))).toMatchObject({ balance_token: '111.7', locked_balance: '0' })
    } finally {
      await open.close()
    }
  })
})
