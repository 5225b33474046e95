import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FarmingActivation, FarmingLink, FarmingLinkList, FarmingPlanList } from '../../core/domain/entities/farming.ts'
import { CandleList, FinancialStats, MaintenanceStatus, OperationHistory, Price } from '../../core/domain/entities/market.ts'
import { BondQuote, Mint, MintList, MintPayment, MintPlanList, Stake, StakeList, StakeQuote } from '../../core/domain/entities/mint.ts'
import { TokenPair } from '../../core/domain/entities/session.ts'
import { Task, TaskList } from '../../core/domain/entities/task.ts'
import { ReferralList, UserData } from '../../core/domain/entities/user.ts'
import { TransferResult, Withdrawal, WithdrawHistory, WithdrawQuote } from '../../core/domain/entities/withdraw.ts'
import { decode, SOME_ADDRESS, startTestServer, type Session, type TestServer } from './support.ts'

let t: TestServer
let alice: Session
let bob: Session

beforeAll(async () => {
  t = await startTestServer()
  alice = await t.login(1001)
})
afterAll(() => t.close())

/** Access tokens live 15 minutes: after moving the clock by days, sign in again. */
const relogin = async () => {
  alice = await t.login(1001)
  bob = await t.login(1002)
}

describe('auth and user', () => {
  it('registers with initData and answers a token pair', async () => {
    const me = decode(UserData, (await alice.call('GET', '/user/me')).body)
    const res = await t.call('POST', '/auth/register', {
      body: { init_data: (await import('./support.ts')).signInitData({ id: 1002 }, t.clock.now), ref_code: me.ref_code },
    })
    expect(res.status).toBe(200)
    const pair = decode(TokenPair, res.body)
    bob = { token: pair.token, refresh: pair.refresh, telegramId: 1002, call: (m, p, o = {}) => t.call(m, p, { token: pair.token, ...o }) }
  })

  it('GET /user/me: welcome balance, level 0, not a community member', async () => {
    const res = await alice.call('GET', '/user/me')
    expect(res.status).toBe(200)
    const me = decode(UserData, res.body)
    expect(res.body).toMatchObject({ balance_token: '100', task_balance: '0', referral_balance: '0', ref: { level: 0 } })
    expect(me.community_participation).toBe(false)
  })

  it('POST /auth/refresh rotates (body field refresh_token or refresh)', async () => {
    const s = await t.login(1003)
    const a = await t.call('POST', '/auth/refresh', { body: { refresh_token: s.refresh } })
    expect(a.status).toBe(200)
    const pair = decode(TokenPair, a.body)
    const b = await t.call('POST', '/auth/refresh', { body: { refresh: pair.refresh } })
    expect(b.status).toBe(200)
    decode(TokenPair, b.body)
  })

  it('GET /user/referrals lists the invited user', async () => {
    const res = await alice.call('GET', '/user/referrals')
    const list = decode(ReferralList, res.body)
    expect(list).toMatchObject({ total: 1, page: 1, limit: 300 })
    expect(list.items).toHaveLength(1)
    expect(list.items[0]).toMatchObject({ level: 0, turnover: 0 })
  })

  it('POST /user/share-message without a Bot API answers 424 with msg, never an invented id', async () => {
    const res = await alice.call('POST', '/user/share-message')
    expect(res.status).toBe(424)
    expect(res.body).toEqual({ msg: expect.any(String) })
  })
})

describe('bonds and staking', () => {
  let mintId = 0
  it('GET /mint/all-plans includes an inactive plan', async () => {
    const plans = decode(MintPlanList, (await alice.call('GET', '/mint/all-plans')).body)
    expect(plans.some((p) => !p.is_active)).toBe(true)
    expect(plans.filter((p) => p.is_active).map((p) => p.days)).toContain(30)
  })

  it('GET /mint/calculate quotes with exact strings', async () => {
    const res = await alice.call('GET', '/mint/calculate', { query: { amount: '100', freeze_days: 30 } })
    const q = decode(BondQuote, res.body)
    // 100 × (0.7 + 0.1 collective) % × 30 days
    expect(res.body).toMatchObject({ amount_token: '100', tariff_days: 30, daily_reward: '0.7', max_reward: '24' })
    expect(q.amount_ton).toBeGreaterThan(0)
  })

  it('POST /mint/create makes a pending bond and the payment to send', async () => {
    const res = await bob.call('POST', '/mint/create', { body: { amount: 200, days: 30 }, headers: { 'idempotency-key': 'k1' } })
    expect(res.status).toBe(200)
    const mp = decode(MintPayment, res.body)
    mintId = Number(mp.mint.id)
    expect(mp.mint.status).toBe('pending')
    expect(mp.payment.comment).toBe(`axiom:mint:${mintId}`)
    expect(mp.payment.valid_until).toBe(t.clock.now + 60)
    expect(BigInt(mp.payment.amount_nano)).toBeGreaterThan(0n)
  })

  it('a paid bond is active, and the referrer earns its tier bonus and turnover', async () => {
    await t.server.markMintPaid(mintId)
    const list = decode(MintList, (await bob.call('GET', '/mint/', { query: { page: 1, limit: 300 } })).body)
    expect(list.total).toBe(1)
    expect(list.items[0]!.status).toBe('active')
    const me = await alice.call('GET', '/user/me')
    expect(me.body).toMatchObject({ referral_balance: '10', ref: { turnover: '200', level: 1 } })
  })

  it('rewards accrue on read, exactly in nano', async () => {
    t.clock.advance(86_400)
    await relogin()
    const list = decode(MintList, (await bob.call('GET', '/mint/')).body)
    // 200 × 0.8 % per day
    expect((await bob.call('GET', '/mint/')).body.items[0].earned_reward).toBe('1.6')
    expect(list.items[0]!.last_updated_at).toBe(t.clock.now)
  })

  it('GET /staking/calculate and POST /staking/create move the bond to staking', async () => {
    const quoteWire = (await bob.call('GET', '/staking/calculate', { query: { staking_id: mintId } })).body
    expect(quoteWire.staking_id).toBe(mintId)
    // The app reads every id as one branded string.
    expect(decode(StakeQuote, quoteWire)).toMatchObject({ staking_id: String(mintId), total_amount: 200, tariff_days: 30, daily_reward: 0.9 })
    const res = await bob.call('POST', '/staking/create', { body: { mint_id: mintId } })
    expect(res.status).toBe(200)
    expect(decode(Stake, res.body).status).toBe('active')
    const mints = decode(MintList, (await bob.call('GET', '/mint/')).body)
    expect(mints.items[0]!.status).toBe('move_to_staking')
    const stakes = decode(StakeList, (await bob.call('GET', '/staking/', { query: { page: 1, limit: 10 } })).body)
    expect(stakes.total).toBe(1)
    expect((await bob.call('GET', '/user/me')).body.balance_token).toBe('101.6')
  })

  it('a stake completes at the end of its term and pays principal and reward', async () => {
    t.clock.advance(30 * 86_400)
    await relogin()
    const stakes = decode(StakeList, (await bob.call('GET', '/staking/')).body)
    expect(stakes.items[0]!.status).toBe('completed')
    // 101.6 + 200 + 200 × 1 % × 30
    expect((await bob.call('GET', '/user/me')).body.balance_token).toBe('361.6')
  })

  it('POST /mint/{id}/cancel: pending simply cancels, active keeps a 10 % penalty', async () => {
    const created = decode(MintPayment, (await alice.call('POST', '/mint/create', { body: { amount: '10', days: 10 } })).body)
    const pending = await alice.call('POST', `/mint/${created.mint.id}/cancel`)
    expect(decode(Mint, pending.body).status).toBe('canceled')
    const again = await alice.call('POST', `/mint/${created.mint.id}/cancel`)
    expect(again.status).toBe(400)
    const paid = decode(MintPayment, (await alice.call('POST', '/mint/create', { body: { amount: '20', days: 10 } })).body)
    await t.server.markMintPaid(Number(paid.mint.id))
    const before = (await alice.call('GET', '/user/me')).body.balance_token
    expect(decode(Mint, (await alice.call('POST', `/mint/${paid.mint.id}/cancel`)).body).status).toBe('canceled')
    const after = (await alice.call('GET', '/user/me')).body.balance_token
    expect(Number(after) - Number(before)).toBeCloseTo(18, 9)
    expect((await alice.call('POST', '/mint/999999/cancel')).status).toBe(404)
  })
})

describe('farming links', () => {
  let code = ''
  let linkId = 0
  it('GET /farming/plans shows what the chosen balance holds', async () => {
    const plans = decode(FarmingPlanList, (await alice.call('GET', '/farming/plans', { query: { from_ref_balance: true, from_task_balance: false } })).body)
    expect(plans.find((p) => p.days === 30)?.available).toBe(10)
  })

  it('GET /farming/calculate quotes like a bond', async () => {
    decode(BondQuote, (await alice.call('GET', '/farming/calculate', { query: { amount: 2, freeze_days: 10 } })).body)
  })

  it('POST /farming/create funds the link from the referral balance', async () => {
    const res = await alice.call('POST', '/farming/create', {
      body: { amount: 2, days: 10, count_activations: 3, from_ref_balance: true, from_task_balance: false, is_multilink: true, is_for_me: false },
    })
    expect(res.status).toBe(200)
    const link = decode(FarmingLink, res.body)
    code = link.activation_code
    linkId = Number(link.id)
    expect(link).toMatchObject({ status: 'active', used_activations: 0, count_activations: 3 })
    expect((await alice.call('GET', '/user/me')).body.referral_balance).toBe('4')
    const list = decode(FarmingLinkList, (await alice.call('GET', '/farming/', { query: { page: 1, limit: 300 } })).body)
    expect(list.items[0]!.created_at).toBe(t.clock.now)
  })

  it('GET /farming/activation-status activates once per user', async () => {
    const res = await bob.call('GET', '/farming/activation-status', { query: { activation_code: code } })
    const act = decode(FarmingActivation, res.body)
    expect(act.status).toBe('ACTIVE')
    expect(act.mint_details).toMatchObject({ tariff_days: 10, amount_token: 2 })
    const again = decode(FarmingActivation, (await bob.call('GET', '/farming/activation-status', { query: { activation_code: code } })).body)
    expect(again.status).toBe('ACTIVE')
    const mints = decode(MintList, (await bob.call('GET', '/mint/')).body)
    expect(mints.items.filter((m) => m.status === 'active' && m.total_amount === 2)).toHaveLength(1)
    expect((await alice.call('GET', '/farming/activation-status', { query: { activation_code: code } })).status).toBe(403)
    expect((await bob.call('GET', '/farming/activation-status', { query: { activation_code: 'NOPE1234' } })).status).toBe(404)
  })

  it('POST /farming/{id}/cancel revokes and refunds the unused part', async () => {
    const res = await alice.call('POST', `/farming/${linkId}/cancel`)
    expect(decode(FarmingLink, res.body).status).toBe('revoked')
    expect((await alice.call('GET', '/user/me')).body.referral_balance).toBe('8')
    const carol = await t.login(1004)
    const act = decode(FarmingActivation, (await carol.call('GET', '/farming/activation-status', { query: { activation_code: code } })).body)
    expect(act.status).toBe('REVOKED')
  })

  it('a single-use link answers REACHED to a second user', async () => {
    const link = decode(
      FarmingLink,
      (
        await alice.call('POST', '/farming/create', {
          body: { amount: 1, days: 10, count_activations: 1, from_ref_balance: true, from_task_balance: false, is_multilink: false, is_for_me: false },
        })
      ).body,
    )
    expect((await bob.call('GET', '/farming/activation-status', { query: { activation_code: link.activation_code } })).body.status).toBe('ACTIVE')
    const dave = await t.login(1005)
    expect((await dave.call('GET', '/farming/activation-status', { query: { activation_code: link.activation_code } })).body.status).toBe('REACHED')
  })
})

describe('withdraw, operations, tasks, market', () => {
  it('GET /withdraw/calculate takes a 3 % fee', async () => {
    const res = await alice.call('GET', '/withdraw/calculate', { query: { token_amount: '10' } })
    decode(WithdrawQuote, res.body)
    expect(res.body).toMatchObject({ token_amount: '10', fee: '0.3', net_amount: '9.7' })
  })

  it('POST /withdraw/create reserves the amount; GET /withdraw/history pages it', async () => {
    const res = await alice.call('POST', '/withdraw/create', { body: { from_ref_balance: false, token_amount: '5.5', address: SOME_ADDRESS } })
    expect(res.status).toBe(200)
    expect(decode(Withdrawal, res.body)).toMatchObject({ status: 'pending', token_amount: 5.5 })
    const hist = decode(
      WithdrawHistory,
      (await alice.call('GET', '/withdraw/history', { query: { page: 1, limit: 10, sort_by: 'created_at', sort_order: 'desc' } })).body,
    )
    expect(hist.total).toBe(1)
    const bad = await alice.call('POST', '/withdraw/create', { body: { from_ref_balance: false, token_amount: 1, address: 'EQnotanaddress' } })
    expect(bad.status).toBe(422)
    const poor = await alice.call('POST', '/withdraw/create', { body: { from_ref_balance: false, token_amount: 1e6, address: SOME_ADDRESS } })
    expect(poor).toMatchObject({ status: 400, body: { msg: 'Insufficient balance' } })
  })

  it('POST /withdraw/transfer-from-referral-balance moves the referral balance', async () => {
    const res = await alice.call('POST', '/withdraw/transfer-from-referral-balance', { body: { token_amount: 3 } })
    expect(decode(TransferResult, res.body).referral_balance).toBe(4)
  })

  it('GET /operations/history lists every balance change', async () => {
    const res = await alice.call('GET', '/operations/history', { query: { page: 1, size: 100, sort_order: 'asc' } })
    const hist = decode(OperationHistory, res.body)
    expect(hist.items[0]!.type).toBe('welcome')
    expect(hist.items.map((o) => o.type)).toEqual(expect.arrayContaining(['referral_reward', 'farming_fund', 'withdraw', 'transfer_in']))
    expect(res.body.limit).toBe(100)
  })

  it('tasks run start → validate → claim, in order', async () => {
    const tasks = decode(TaskList, (await alice.call('GET', '/task/list')).body)
    expect(tasks.map((x) => x.kind)).toEqual(['community', 'link', 'photo'])
    expect((await alice.call('POST', '/task/claim', { body: { task_id: 1 } })).status).toBe(409)
    decode(Task, (await alice.call('POST', '/task/start', { body: { task_id: 1 } })).body)
    expect(decode(Task, (await alice.call('POST', '/task/validate', { body: { task_id: 1 } })).body).status).toBe('VALIDATED')
    expect((await alice.call('GET', '/user/me')).body.community_participation).toBe(true)
    expect(decode(Task, (await alice.call('POST', '/task/claim', { body: { task_id: 1 } })).body).status).toBe('CLAIMED')
    expect((await alice.call('GET', '/user/me')).body.task_balance).toBe('5')

    await alice.call('POST', '/task/start', { body: { task_id: 2 } })
    expect((await alice.call('POST', '/task/validate', { body: { task_id: 2, link: 'https://evil.example' } })).status).toBe(422)
    expect((await alice.call('POST', '/task/validate', { body: { task_id: 2, link: 'https://t.me/axiom_news' } })).status).toBe(200)

    await alice.call('POST', '/task/start', { body: { task_id: 3 } })
    const big = `data:image/png;base64,${'A'.repeat(1_500_000)}`
    expect(await alice.call('POST', '/task/validate', { body: { task_id: 3, photo: big } })).toMatchObject({ status: 413, body: { msg: 'File size is too large' } })
    const small = `data:image/png;base64,${Buffer.from('png-bytes').toString('base64')}`
    expect((await alice.call('POST', '/task/validate', { body: { task_id: 3, photo: small } })).status).toBe(200)
  })

  it('a body far over the limit is a JSON 413, not a crash', async () => {
    const res = await alice.call('POST', '/task/validate', { rawBody: JSON.stringify({ task_id: 3, photo: 'x'.repeat(9 * 1024 * 1024) }) })
    expect(res).toMatchObject({ status: 413, body: { msg: 'File size is too large' } })
  })

  it('price, candles and stats', async () => {
    decode(Price, (await alice.call('GET', '/price/current-price')).body)
    const now = t.clock.now
    const candles = decode(CandleList, (await alice.call('GET', '/price/candles', { query: { interval: '1h', from_timestamp: now - 86_400, to_timestamp: now } })).body)
    expect(candles.length).toBe(25)
    for (const c of candles) {
      expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close))
      expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close))
    }
    expect((await alice.call('GET', '/price/candles', { query: { interval: '2h' } })).status).toBe(422)
    expect((await alice.call('GET', '/price/candles', { query: { interval: '5m', from_timestamp: now, to_timestamp: now - 1 } })).status).toBe(422)
    const wide = (await alice.call('GET', '/price/candles', { query: { interval: '5m', from_timestamp: 0, to_timestamp: now } })).body
    expect(wide).toHaveLength(1000)
    const stats = decode(FinancialStats, (await alice.call('GET', '/stats/financial')).body)
    expect(stats.total_users).toBeGreaterThanOrEqual(3)
  })

  it('maintenance: /maintenance/ needs no auth; the other calls answer 503 while it is on', async () => {
    expect(decode(MaintenanceStatus, (await t.call('GET', '/maintenance/')).body).detail).toBe('Maintenance mode is disabled')
    await t.server.admin.setMaintenance(true)
    expect((await t.call('GET', '/maintenance/')).body.detail).toBe('Maintenance mode is enabled')
    expect(await alice.call('GET', '/user/me')).toMatchObject({ status: 503, body: { msg: 'We are under maintenance' } })
    await t.server.admin.setMaintenance(false)
    expect((await alice.call('GET', '/user/me')).status).toBe(200)
  })

  it('unknown paths are a JSON 404', async () => {
    expect(await alice.call('GET', '/nope')).toMatchObject({ status: 404, body: { msg: 'Not found' } })
  })
})
