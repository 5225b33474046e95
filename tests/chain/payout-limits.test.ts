import { TonClient4 } from '@ton/ton'
import { Address } from '@ton/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { outgoingPayments, type OutgoingPayment } from '../../server/chain/payment-rows.ts'
import { createPayoutSender, type PayoutSender } from '../../server/chain/payouts.ts'
import { hourOutflow, readBreaker, setPayoutPause } from '../../server/chain/payout-breaker.ts'
import { approveHeldSale, heldSales, rejectHeldSale } from '../../server/domain/sale-payouts.ts'
import { NO_PAYOUT_LIMITS, type PayoutLimits } from '../../server/config/config.ts'
import { saleComment, type Lease } from '../../server/main.ts'
import { big, getRow, str } from '../../server/db/sql.ts'
import { readComment } from '../../stand-ins/chain/local-chain.ts'
import type { Session } from '../server/support.ts'
import { startStack, type Stack } from './support.ts'

/**
 * The payouts' limits and breaker (server/chain/payouts.ts) on the local sandbox chain through the real
 * v4 API and TonClient4: what is held or paused leaves nothing on the chain, and goes once released.
 */
let s: Stack
let client: TonClient4

beforeAll(async () => {
  // No stream: a treasury message it reported landing would wake the backend's own payouts, which pay
  // with the server's limits what this file's senders hold back. The watcher still polls.
  s = await startStack({ stream: false })
  client = new TonClient4({ endpoint: s.ton.v4Endpoint, timeout: 5000 })
})
afterAll(async () => {
  await setPayoutPause(s.ts.server.ctx, false).catch(() => undefined)
  await s?.close()
})

const ctx = () => s.ts.server.ctx
const always: Lease = { held: () => true, onAcquired: () => undefined }
const TON = 1_000_000_000n

const sender = (limits: Partial<PayoutLimits>): PayoutSender =>
  createPayoutSender(ctx(), {
    client,
    treasury: { version: 'v4r2', keyPair: s.ton.chain.treasury.keyPair, wallet: s.ton.chain.treasury.wallet },
    lease: always,
    maxFailures: 5,
    limits: { ...NO_PAYOUT_LIMITS, ...limits },
    log: () => undefined,
  })

let nextUser = 7100
/** A seller of their own (the per-user-day window counts a user's sales). */
const seller = async (): Promise<{ session: Session; telegramId: number }> => {
  const telegramId = nextUser++
  const session = await s.ts.login(telegramId)
  await s.ts.server.admin.credit(telegramId, '5000')
  return { session, telegramId }
}

const createSale = async (u: Session, tokens: string, wallet = 1) => {
  const res = await u.call('POST', '/withdraw/create', { body: { token_amount: tokens, address: s.ton.chain.devWallet(wallet).friendly } })
  expect(res.status).toBe(200)
  const id = BigInt(res.body.id)
  return { id, amount: big((await getRow(ctx().db, 'SELECT amount_ton FROM withdrawals WHERE id = ?', id))!, 'amount_ton') }
}

const status = async (id: bigint) => str((await getRow(ctx().db, 'SELECT status FROM withdrawals WHERE id = ?', id))!, 'status')
const outgoingOf = async (id: bigint): Promise<OutgoingPayment | undefined> => (await outgoingPayments(ctx())).find((r) => r.withdrawalId === id)

/** What the chain carried to dev wallet `index` with sale `id`'s comment: the chain's own record, not the rows. */
const paidOnChain = (index: number, id: bigint): bigint[] =>
  s.ton.chain
    .transactionsOf(s.ton.chain.devWallet(index).address)
    .map((t) => t.tx.inMessage)
    .filter((m) => m?.info.type === 'internal' && readComment(m.body) === saleComment(id))
    .map((m) => (m!.info.type === 'internal' ? m!.info.value.coins : 0n))

const treasuryBalance = async (): Promise<bigint> => {
  const last = await client.getLastBlock()
  return BigInt((await client.getAccountLite(last.last.seqno, Address.parse(s.ton.treasuryAddress))).account.balance.coins)
}

/**
 * Passes of `p` (each followed by the watcher's, which confirms what landed) until sale `id` is paid,
 * or `ms` is over: what is sent lands in the chain's next block (400 ms).
 */
const untilPaid = async (p: PayoutSender, id: bigint, ms = 10_000) => {
  for (const until = Date.now() + ms; (await outgoingOf(id))?.state !== 'paid' && Date.now() < until; ) {
    await p.pass()
    await s.ton.service.watcher.pass()
    await new Promise((r) => setTimeout(r, 50))
  }
  return (await outgoingOf(id))?.state
}

/** A few passes that must not pay: the payouts' and the watcher's. */
const passes = async (p: PayoutSender, n = 3) => {
  for (let i = 0; i < n; i++) {
    await p.pass()
    await s.ton.service.watcher.pass()
  }
}

const conserved = async () => {
  const l = await s.ts.server.admin.ledger()
  expect(l.balances + l.locked + l.withdrawals + l.linkFunds + l.penalties).toBe(l.credited)
  expect(await s.ts.server.admin.verifyTotals()).toEqual([])
}

describe('a sale over the per-sale limit is held for the operator', () => {
  it('held, not sent (the treasury pays nothing), shown pending to the user; approved, then paid once', async () => {
    const { session } = await seller()
    const small = await createSale(session, '2')
    const big_ = await createSale(session, '40')
    const p = sender({ maxSaleNano: small.amount + 1n })
    const before = await treasuryBalance()
    await passes(p)
    expect(await status(big_.id)).toBe('held')
    expect(await outgoingOf(big_.id)).toBeUndefined()
    expect(paidOnChain(1, big_.id)).toEqual([])
    // The small one went; the treasury's outflow on the chain is the small one's (and its fee), not the big one's.
    expect(await untilPaid(p, small.id)).toBe('paid')
    expect(before - (await treasuryBalance())).toBeLessThan(small.amount + TON / 10n)
    const held = await heldSales(ctx())
    expect(held.map((h) => h.id)).toContain(big_.id)
    expect(held.find((h) => h.id === big_.id)!.reason).toMatch(/per-sale limit/)
    // The app sees a sale not paid yet: a status it decodes.
    const history = await session.call('GET', '/withdraw/history')
    expect(history.body.items.find((w: { id: number }) => w.id === Number(big_.id)).status).toBe('pending')

    expect(await approveHeldSale(ctx(), big_.id)).toBe(true)
    expect(await approveHeldSale(ctx(), big_.id)).toBe(false)
    expect(await untilPaid(p, big_.id)).toBe('paid')
    await passes(p)
    expect(paidOnChain(1, big_.id)).toEqual([big_.amount])
    expect(await status(big_.id)).toBe('completed')
    await conserved()
  })

  it('rejected: nothing is sent, the whole token_amount is back on the balance it came from, and the totals agree', async () => {
    const { session } = await seller()
    const me = async () => (await session.call('GET', '/user/me')).body
    const was = await me()
    const sale = await createSale(session, '30', 2)
    expect((await me()).balance_token).not.toBe(was.balance_token)
    const p = sender({ maxSaleNano: TON / 100n })
    await passes(p, 1)
    expect(await status(sale.id)).toBe('held')
    expect(await rejectHeldSale(ctx(), sale.id)).toBe(true)
    expect(await rejectHeldSale(ctx(), sale.id)).toBe(false)
    expect(await approveHeldSale(ctx(), sale.id)).toBe(false)
    expect((await me()).balance_token).toBe(was.balance_token)
    expect(await status(sale.id)).toBe('failed')
    const op = await getRow(ctx().db, `SELECT type, amount, balance FROM operations WHERE description = ?`, `Sale #${sale.id} refused: tokens returned`)
    expect(op).toMatchObject({ type: 'withdraw_refund', balance: 'balance_token' })
    expect(big(op!, 'amount')).toBe(30n * TON)
    await passes(p, 2)
    expect(await outgoingOf(sale.id)).toBeUndefined()
    expect(paidOnChain(2, sale.id)).toEqual([])
    await conserved()
  })
})

describe('the per-user-day limit', () => {
  it("counts a user's sales of the last 24 h: the one that would go over is held, another user's are not", async () => {
    const a = await seller()
    const b = await seller()
    const s1 = await createSale(a.session, '3')
    const s2 = await createSale(a.session, '3.1')
    const s3 = await createSale(a.session, '3.2')
    const other = await createSale(b.session, '3')
    const p = sender({ maxUserDayNano: s1.amount + s2.amount })
    expect(await untilPaid(p, s2.id)).toBe('paid')
    expect(await untilPaid(p, other.id)).toBe('paid')
    expect(await outgoingOf(s1.id)).toMatchObject({ state: 'paid' })
    expect(await status(s3.id)).toBe('held')
    expect((await heldSales(ctx())).find((h) => h.id === s3.id)!.reason).toMatch(/per-user-day limit/)
    // A later sale of the same user, within the day: held too.
    const s4 = await createSale(a.session, '1')
    await passes(p, 1)
    expect(await status(s4.id)).toBe('held')
    expect(paidOnChain(1, s3.id)).toEqual([])
    expect(paidOnChain(1, s4.id)).toEqual([])
  })
})

describe('the breaker', () => {
  it('a manual pause holds every payment (queued, nothing sent); resume pays', async () => {
    const { session } = await seller()
    const sale = await createSale(session, '2', 0)
    await setPayoutPause(ctx(), true)
    const p = sender({})
    await passes(p)
    expect(await outgoingOf(sale.id)).toMatchObject({ state: 'queued' })
    expect(paidOnChain(0, sale.id)).toEqual([])
    expect((await readBreaker(ctx().db))!.causes).toEqual([expect.stringMatching(/paused by the operator/)])
    await setPayoutPause(ctx(), false)
    expect(await untilPaid(p, sale.id)).toBe('paid')
    expect(paidOnChain(0, sale.id)).toEqual([sale.amount])
    expect((await readBreaker(ctx().db))!.causes).toEqual([])
  })

  it('a treasury that would fall below its reserve pays nothing; a lower reserve pays', async () => {
    const { session } = await seller()
    const sale = await createSale(session, '2', 2)
    const balance = await treasuryBalance()
    await passes(sender({ treasuryReserveNano: balance - sale.amount + 1n }))
    expect(await outgoingOf(sale.id)).toMatchObject({ state: 'queued' })
    expect(paidOnChain(2, sale.id)).toEqual([])
    expect((await readBreaker(ctx().db))!.causes).toEqual([expect.stringMatching(/below its reserve/)])
    expect(await untilPaid(sender({ treasuryReserveNano: balance - sale.amount - TON }), sale.id)).toBe('paid')
    expect(paidOnChain(2, sale.id)).toEqual([sale.amount])
  })

  // Last: it moves the server's clock an hour on.
  it("the hour's limit: what would go over it waits (queued), and goes once the window has passed", async () => {
    const { session } = await seller()
    const s1 = await createSale(session, '2', 1)
    const s2 = await createSale(session, '2', 2)
    const s3 = await createSale(session, '2', 0)
    const p = sender({ maxHourNano: (await hourOutflow(ctx())) + s1.amount + s2.amount })
    expect(await untilPaid(p, s2.id)).toBe('paid')
    expect(await outgoingOf(s1.id)).toMatchObject({ state: 'paid' })
    await passes(p)
    expect(await outgoingOf(s3.id)).toMatchObject({ state: 'queued' })
    expect(paidOnChain(0, s3.id)).toEqual([])
    expect((await readBreaker(ctx().db))!.causes.join()).toMatch(/hour's outflow/)
    s.ts.clock.now += 3_601
    expect(await untilPaid(p, s3.id)).toBe('paid')
    expect(paidOnChain(0, s3.id)).toEqual([s3.amount])
  })
})
