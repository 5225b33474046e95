import { Address, internal, toNano } from '@ton/core'
import { TonClient4 } from '@ton/ton'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REFUND_FEE_NANO } from '../../server/main.ts'
import { FORWARD_FEE_TOLERANCE_NANO } from '../../server/chain/payment-rows.ts'
import { DEFAULT_DEV_WALLET_BALANCE } from '../../stand-ins/chain/dev-keys.ts'
import { commentCell, readComment } from '../../stand-ins/chain/local-chain.ts'
import type { Session } from '../server/support.ts'
import { eventually, startStack, type Stack } from './support.ts'

let s: Stack
let user: Session

beforeAll(async () => {
  s = await startStack()
  user = await s.ts.login(5001)
  // Welcome tokens are not for sale: the sale sells tokens of the user's own.
  await s.ts.server.admin.credit(5001, '100')
})
afterAll(async () => s?.close())

/** Each create uses another amount: an identical create within 5 s answers the first bond (dedupe). */
let nextAmount = 10
const createMint = async (amount = nextAmount++) => {
  const res = await user.call('POST', '/mint/create', { body: { amount, days: 30 } })
  expect(res.status).toBe(200)
  return res.body as { mint: { id: number }; payment: { address: string; amount_nano: string; comment: string; valid_until: number } }
}

const mintStatus = async (id: number) => {
  const res = await user.call('GET', '/mint/')
  return (res.body.items as Array<{ id: number; status: string }>).find((m) => m.id === id)?.status
}

/** Pays from dev wallet `index` to the treasury with `comment`. */
const pay = (index: number, value: bigint, comment: string) =>
  s.ton.chain.transfer(s.ton.chain.devWallet(index), [{ to: s.ton.treasuryAddress, value, body: commentCell(comment), bounce: true }])

const refundsTo = (index: number) =>
  s.ton.chain
    .transactionsOf(s.ton.chain.devWallet(index).address)
    .map((t) => t.tx.inMessage)
    .filter((m) => m?.info.type === 'internal')
    .map((m) => ({ comment: readComment(m!.body), value: m!.info.type === 'internal' ? m!.info.value.coins : 0n }))

describe('the local chain through the real TonClient4', () => {
  it('reads a dev wallet balance, runs a get method and accepts an external message', async () => {
    const client = new TonClient4({ endpoint: s.ton.v4Endpoint, timeout: 5000 })
    const w = s.ton.chain.devWallet(0)
    const last = await client.getLastBlock()
    const lite = await client.getAccountLite(last.last.seqno, Address.parse(w.friendly))
    expect(lite.account.balance.coins).toBe(DEFAULT_DEV_WALLET_BALANCE.toString())
    expect(lite.account.state.type).toBe('active')
    const full = await client.getAccount(last.last.seqno, w.wallet.address)
    expect(full.account.state.type).toBe('active')

    const wallet = client.open(w.wallet)
    const seqno = await wallet.getSeqno()
    const before = await s.ton.chain.balance(s.ton.treasuryAddress)
    await wallet.sendTransfer({
      seqno,
      secretKey: w.keyPair.secretKey,
      messages: [internal({ to: Address.parse(s.ton.treasuryAddress), value: toNano('2'), body: commentCell('top-up') })],
    })
    // /send answers at acceptance, as a node does: the transfer is in the chain's next block.
    await eventually(async () => (await wallet.getSeqno()) === seqno + 1)
    const after = await client.getAccountLite((await client.getLastBlock()).last.seqno, Address.parse(s.ton.treasuryAddress))
    // The treasury's own receive fees (storage, compute) come off what arrived.
    expect(BigInt(after.account.balance.coins)).toBeGreaterThan(before + toNano('2') - toNano('0.002'))
    expect(BigInt(after.account.balance.coins)).toBeLessThanOrEqual(before + toNano('2'))
    await eventually(() => s.ton.watcher.records.at(-1)?.comment === 'top-up')
    expect(s.ton.watcher.records.at(-1)).toMatchObject({ outcome: 'ignored', comment: 'top-up' })
  })

  it('answers 400 to a message the chain cannot take', async () => {
    const res = await fetch(`${s.ton.v4Endpoint}/send`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ boc: 'AAAA' }) })
    expect(res.status).toBe(400)
  })
})

describe('the payment watcher', () => {
  it('activates the pending bond paid with its comment and amount', async () => {
    const { mint, payment } = await createMint()
    expect(payment.address).toBe(s.ton.treasuryAddress)
    const treasuryBefore = await s.ton.chain.balance(s.ton.treasuryAddress)
    await pay(1, BigInt(payment.amount_nano), payment.comment)
    // In a block now; the watcher hears of it on the stream and reads it from the history.
    await eventually(async () => (await mintStatus(mint.id)) === 'active')
    const treasuryAfter = await s.ton.chain.balance(s.ton.treasuryAddress)
    expect(treasuryAfter).toBeGreaterThan(treasuryBefore + BigInt(payment.amount_nano) - toNano('0.002'))
    expect(s.ton.watcher.records.at(-1)).toMatchObject({ outcome: 'activated', mintId: BigInt(mint.id) })
  })

  it('activates on over-payment and keeps the surplus', async () => {
    const { mint, payment } = await createMint()
    await pay(1, BigInt(payment.amount_nano) + 1000n, payment.comment)
    await eventually(async () => (await mintStatus(mint.id)) === 'active')
    expect(s.ton.watcher.records.at(-1)).toMatchObject({ outcome: 'activated', overpaidNano: 1000n })
  })

  it('refunds an under-payment and leaves the bond pending', async () => {
    const { mint, payment } = await createMint()
    // Short by just more than the forward fee a wallet may take out of the value (which is credited).
    const short = BigInt(payment.amount_nano) - FORWARD_FEE_TOLERANCE_NANO - 1n
    await pay(2, short, payment.comment)
    await s.ton.watcher.idle()
    expect(await mintStatus(mint.id)).toBe('pending')
    expect(s.ton.watcher.records.at(-1)).toMatchObject({ outcome: 'refunded', reason: 'underpaid' })
    // The refund is the payment less the network fee its sending costs (REFUND_FEE_NANO).
    await eventually(() => refundsTo(2).some((r) => r.comment === `axiom:refund:${mint.id}:underpaid`))
    expect(refundsTo(2)).toContainEqual({ comment: `axiom:refund:${mint.id}:underpaid`, value: short - REFUND_FEE_NANO })
  })

  it("refunds a payment after valid_until, by the chain's time of the payment", async () => {
    // Quoted 61 s before the chain's clock: the payment lands after its valid_until.
    s.ts.clock.advance(-61)
    const { mint, payment } = await createMint()
    s.ts.clock.advance(61)
    await pay(2, BigInt(payment.amount_nano), payment.comment)
    await s.ton.watcher.idle()
    expect(await mintStatus(mint.id)).toBe('pending')
    expect(s.ton.watcher.records.at(-1)).toMatchObject({ outcome: 'refunded', reason: 'expired' })
    await eventually(() => refundsTo(2).some((r) => r.comment === `axiom:refund:${mint.id}:expired`))
    expect(refundsTo(2)).toContainEqual({ comment: `axiom:refund:${mint.id}:expired`, value: BigInt(payment.amount_nano) - REFUND_FEE_NANO })
  })

  it("activates a payment made in time though the server's clock says the bond expired (a watcher that was down)", async () => {
    const { mint, payment } = await createMint()
    // Ten minutes on the server's clock, none on the chain's: the payment's own time decides.
    s.ts.clock.advance(600)
    try {
      await pay(1, BigInt(payment.amount_nano), payment.comment)
      await s.ton.watcher.idle()
      expect(await mintStatus(mint.id)).toBe('active')
      expect(s.ton.watcher.records.at(-1)).toMatchObject({ outcome: 'activated', mintId: BigInt(mint.id) })
    } finally {
      s.ts.clock.advance(-600)
    }
  })

  it('refunds a second payment of an active bond without activating it twice', async () => {
    const { mint, payment } = await createMint()
    await pay(1, BigInt(payment.amount_nano), payment.comment)
    await eventually(async () => (await mintStatus(mint.id)) === 'active')
    const first = await user.call('GET', '/mint/')
    await pay(2, BigInt(payment.amount_nano), payment.comment)
    await s.ton.watcher.idle()
    expect(s.ton.watcher.records.at(-1)).toMatchObject({ outcome: 'refunded', reason: 'duplicate' })
    await eventually(() => refundsTo(2).some((r) => r.comment === `axiom:refund:${mint.id}:duplicate`))
    expect(refundsTo(2)).toContainEqual({ comment: `axiom:refund:${mint.id}:duplicate`, value: BigInt(payment.amount_nano) - REFUND_FEE_NANO })
    const again = await user.call('GET', '/mint/')
    const pick = (b: any) => b.items.find((m: any) => m.id === mint.id)
    expect(pick(again.body).activated_at).toBe(pick(first.body).activated_at)
  })

  it('refunds a payment for an unknown bond', async () => {
    await pay(2, toNano('1'), 'axiom:mint:999999')
    await s.ton.watcher.idle()
    expect(s.ton.watcher.records.at(-1)).toMatchObject({ outcome: 'refunded', reason: 'unknown_bond' })
  })
})

describe('sell on the chain', () => {
  it('pays a pending withdrawal from the treasury and marks it completed', async () => {
    // The refunds above have landed: nothing else is in flight (one treasury message at a time).
    await eventually(async () => (await s.ton.service.outgoing()).every((r) => r.state === 'paid'))
    const to = s.ton.chain.devWallet(2)
    const created = await user.call('POST', '/withdraw/create', { body: { token_amount: '50', address: to.friendly } })
    expect(created.status).toBe(200)
    const amountTon = BigInt(Math.round(Number(created.body.amount_ton) * 1e9))
    const before = await s.ton.chain.balance(to.address)
    // Sent once, then paid once its block is read from the treasury's history. A payout pass woken
    // by the stream (a refund's block finalised) may be under way when the sale is made: a pass asked
    // for meanwhile is that one, which began before the sale, so the sale goes with the next.
    const id = BigInt(created.body.id)
    const ofSale = async () => (await s.ton.service.outgoing()).filter((r) => r.withdrawalId === id)
    await eventually(async () => (await s.ton.payouts.processOnce(), (await ofSale()).length > 0))
    const mine = await ofSale()
    expect(mine).toHaveLength(1)
    expect(mine[0]!.amountNano).toBe(amountTon)
    const statusOf = async () => ((await user.call('GET', '/withdraw/history')).body.items.find((w: any) => w.id === created.body.id) as { status: string }).status
    await eventually(async () => (await statusOf()) === 'completed')
    const after = await s.ton.chain.balance(to.address)
    expect(after).toBeGreaterThan(before + amountTon - toNano('0.01'))
    expect(await s.ton.payouts.processOnce()).toEqual([])
  })
})
