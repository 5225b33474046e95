import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OperationHistory } from '../../core/domain/entities/market.ts'
import { NO_PAYOUT_LIMITS } from '../../server/config/config.ts'
import { holdOverLimits, rejectHeldSale } from '../../server/domain/sale-payouts.ts'
import { decode, SOME_ADDRESS, startTestServer, type Session, type TestServer } from './support.ts'

/**
 * The operations history holds every money event a user made, each with its amount and unit: the TON
 * a bond cost and a sale paid (no token balance moves for either), a stake, a bond from a farming
 * link, the tokens sold, a refused sale's tokens coming back, a transfer from the referral balance,
 * the rewards. Plain HTTP against the real backend; the bond's payment is credited as the chain
 * watcher credits it, the sale's payout confirmed as the payouts confirm it.
 */
let t: TestServer
let me: Session
let friend: Session

type Row = {
  id: number
  type: string
  amount: string
  unit: string
  balance: string
  description: string
  description_key: string | null
  description_params: Record<string, string | number> | null
}

const history = async (who: Session, query: Record<string, string | number> = { size: 100 }) => {
  const res = await who.call('GET', '/operations/history', { query })
  expect(res.status).toBe(200)
  // The app's own schema reads every row, with its unit and balance.
  decode(OperationHistory, res.body)
  return res.body as { items: Row[]; total: number }
}

const only = (rows: Row[], type: string): Row => {
  const found = rows.filter((r) => r.type === type)
  expect(found.map((r) => r.description), type).toHaveLength(1)
  return found[0]!
}

const facts = { bondTon: '', bondId: 0, stakeId: 0, linkBondId: 0, saleId: 0, saleTon: '', refusedId: 0, referral: '' }

beforeAll(async () => {
  t = await startTestServer()
  me = await t.login(9101)
  const refCode = (await me.call('GET', '/user/me')).body.ref_code as string
  friend = await t.login(9102, refCode)

  // A bond bought and paid in TON.
  const created = await me.call('POST', '/mint/create', { body: { amount: 20, days: 30 } })
  expect(created.status, JSON.stringify(created.body)).toBe(200)
  facts.bondId = Number(created.body.mint.id)
  // The TON due, as the wallet is asked to pay it (nano-units), written as the API writes amounts.
  const due = BigInt(created.body.payment.amount_nano)
  facts.bondTon = `${due / 1_000_000_000n}.${String(due % 1_000_000_000n).padStart(9, '0')}`.replace(/\.?0+$/, '')
  await t.server.markMintPaid(facts.bondId, due)

  // The friend's bond earns a referral bonus.
  const friends = await friend.call('POST', '/mint/create', { body: { amount: 50, days: 30 } })
  expect(friends.status).toBe(200)
  await t.server.markMintPaid(Number(friends.body.mint.id))
  facts.referral = String((await me.call('GET', '/user/me')).body.referral_balance)
  expect(Number(facts.referral)).toBeGreaterThan(1)

  // Ten minutes of reward (within the session token's life), then the bond staked.
  t.clock.advance(600)
  const stake = await me.call('POST', '/staking/create', { body: { mint_id: facts.bondId } })
  expect(stake.status, JSON.stringify(stake.body)).toBe(200)
  facts.stakeId = Number(stake.body.id)

  // A link for myself, funded from the main balance, and activated.
  const link = await me.call('POST', '/farming/create', {
    body: { amount: 5, days: 10, count_activations: 1, from_ref_balance: false, from_task_balance: false, is_multilink: false, is_for_me: true },
  })
  expect(link.status, JSON.stringify(link.body)).toBe(200)
  const activated = await me.call('GET', '/farming/activation-status', { query: { activation_code: link.body.activation_code } })
  expect(activated.body.status).toBe('ACTIVE')
  const bonds = (await me.call('GET', '/mint/')).body.items as Array<{ id: number; number: number }>
  facts.linkBondId = bonds.find((b) => b.id !== facts.bondId)!.id
  expect(bonds.find((b) => b.id === facts.linkBondId)!.number).toBe(2)

  // The referral balance moved to the main one, and sold; the sale paid out.
  expect((await me.call('POST', '/withdraw/transfer-from-referral-balance', { body: { token_amount: facts.referral } })).status).toBe(200)
  const sale = await me.call('POST', '/withdraw/create', { body: { from_ref_balance: false, token_amount: 1.5, address: SOME_ADDRESS } })
  expect(sale.status, JSON.stringify(sale.body)).toBe(200)
  facts.saleId = Number(sale.body.id)
  facts.saleTon = String(sale.body.amount_ton)
  expect(await t.server.payouts.claim(BigInt(facts.saleId))).toBe(true)
  expect(await t.server.payouts.markSent(BigInt(facts.saleId))).toBe(true)

  // A second sale, held over a limit and refused by the operator: its tokens come back.
  const refused = await me.call('POST', '/withdraw/create', { body: { from_ref_balance: false, token_amount: 1, address: SOME_ADDRESS } })
  expect(refused.status, JSON.stringify(refused.body)).toBe(200)
  facts.refusedId = Number(refused.body.id)
  const held = await holdOverLimits(t.server.ctx, { ...NO_PAYOUT_LIMITS, maxSaleNano: 1n })
  expect(held.map((h) => Number(h.id))).toEqual([facts.refusedId])
  expect(await rejectHeldSale(t.server.ctx, BigInt(facts.refusedId))).toBe(true)
})
afterAll(() => t.close())

describe('GET /operations/history: every money event, with its amount and unit', () => {
  it('the bond paid in TON: what it cost, in TON, out of the wallet, under the bond’s own number', async () => {
    const { items } = await history(me)
    const row = only(items, 'bond_paid')
    expect(row).toMatchObject({
      amount: `-${facts.bondTon}`,
      unit: 'GRAM',
      balance: 'wallet',
      description: `Bond #${facts.bondId} bought`,
      description_key: 'operation.bond_paid',
      description_params: { bond: String(facts.bondId), bond_number: 1 },
    })
    expect(Number(facts.bondTon)).toBeGreaterThan(0)
  })

  it('the stake: its principal in tokens, moving no balance, with the bond’s and the stake’s numbers', async () => {
    const { items } = await history(me)
    expect(only(items, 'stake')).toMatchObject({
      amount: '20',
      unit: 'AXIOM',
      balance: 'none',
      description_key: 'operation.stake',
      description_params: { bond: String(facts.bondId), stake: String(facts.stakeId), bond_number: 1, stake_number: 1 },
    })
    // The bond's reward so far was paid on staking, to the main balance.
    const reward = only(items, 'bond_reward')
    expect(reward).toMatchObject({ unit: 'AXIOM', balance: 'balance_token', description_key: 'operation.bond_reward_staked' })
    expect(Number(reward.amount)).toBeGreaterThan(0)
  })

  it('the farming link: its fund out of the main balance, and the bond it gave, numbered 2', async () => {
    const { items } = await history(me)
    expect(only(items, 'farming_fund')).toMatchObject({ amount: '-5', unit: 'AXIOM', balance: 'balance_token' })
    expect(only(items, 'farming_bond')).toMatchObject({
      amount: '5',
      unit: 'AXIOM',
      balance: 'none',
      description_key: 'operation.farming_bond',
      description_params: { bond: String(facts.linkBondId), bond_number: 2 },
    })
  })

  it('the referral bonus and its transfer to the main balance', async () => {
    const { items } = await history(me)
    expect(only(items, 'referral_reward')).toMatchObject({ amount: facts.referral, unit: 'AXIOM', balance: 'referral_balance' })
    expect(only(items, 'transfer_out')).toMatchObject({ amount: `-${facts.referral}`, unit: 'AXIOM', balance: 'referral_balance' })
    expect(only(items, 'transfer_in')).toMatchObject({ amount: facts.referral, unit: 'AXIOM', balance: 'balance_token' })
  })

  it('the sale: its tokens out, and its payout in TON into the wallet once paid', async () => {
    const { items } = await history(me)
    const sold = items.filter((r) => r.type === 'withdraw')
    expect(sold.map((r) => [r.amount, r.unit])).toEqual([
      ['-1', 'AXIOM'],
      ['-1.5', 'AXIOM'],
    ])
    expect(only(items, 'sale_paid')).toMatchObject({
      amount: facts.saleTon,
      unit: 'GRAM',
      balance: 'wallet',
      description: `Sale #${facts.saleId} paid`,
      description_key: 'operation.sale_paid',
      description_params: { sale: String(facts.saleId) },
    })
    expect(Number(facts.saleTon)).toBeGreaterThan(0)
  })

  it('the refused sale: its tokens back, in tokens', async () => {
    const { items } = await history(me)
    expect(only(items, 'withdraw_refund')).toMatchObject({
      amount: '1',
      unit: 'AXIOM',
      balance: 'balance_token',
      description_key: 'operation.sale_refused',
      description_params: { sale: String(facts.refusedId) },
    })
  })

  it('the welcome balance, as before, in tokens; and the rows newest first, one per event', async () => {
    const { items, total } = await history(me)
    expect(only(items, 'welcome')).toMatchObject({ amount: '100', unit: 'AXIOM', balance: 'balance_token' })
    expect(items.map((r) => r.type).reverse()).toEqual([
      'welcome',
      'bond_paid',
      'referral_reward',
      'bond_reward',
      'stake',
      'farming_fund',
      'farming_bond',
      'transfer_out',
      'transfer_in',
      'withdraw',
      'sale_paid',
      'withdraw',
      'withdraw_refund',
    ])
    expect(total).toBe(items.length)
  })

  it('no balance counts a row that moved none: the main balance is the sum of its own rows', async () => {
    const { items } = await history(me)
    const sum = (balance: string) => items.filter((r) => r.balance === balance).reduce((s, r) => s + BigInt(Math.round(Number(r.amount) * 1e9)), 0n)
    const user = (await me.call('GET', '/user/me')).body
    expect(sum('balance_token')).toBe(BigInt(Math.round(Number(user.balance_token) * 1e9)))
    expect(sum('referral_balance')).toBe(BigInt(Math.round(Number(user.referral_balance) * 1e9)))
  })

  it("the friend's history: their bond's TON, under their own number 1", async () => {
    const { items } = await history(friend)
    expect(only(items, 'bond_paid')).toMatchObject({ unit: 'GRAM', balance: 'wallet', description_params: { bond_number: 1 } })
  })
})
