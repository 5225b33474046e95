import { Address, internal, SendMode } from '@ton/core'
import { TonClient4 } from '@ton/ton'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FORWARD_FEE_TOLERANCE_NANO } from '../../server/chain/payment-rows.ts'
import { big, getRow } from '../../server/db/sql.ts'
import { commentCell, readComment } from '../../stand-ins/chain/local-chain.ts'
import type { Session } from '../server/support.ts'
import { eventually, startStack, type Stack } from './support.ts'

/**
 * A wallet that sends with mode 0 (no PAY_GAS_SEPARATELY: @ton/ton's sendTransfer default, and what
 * some wallets and exchanges send) pays the forward fee out of the value: the treasury receives the
 * bond's amount less about 0.0004 TON. Such a payment activates the bond; a shortfall beyond
 * FORWARD_FEE_TOLERANCE_NANO is still refunded.
 */
let s: Stack
let user: Session

beforeAll(async () => {
  s = await startStack()
  user = await s.ts.login(9501)
})
afterAll(async () => s?.close())

let nextAmount = 10
const createMint = async () => {
  const res = await user.call('POST', '/mint/create', { body: { amount: nextAmount++, days: 30 } })
  expect(res.status).toBe(200)
  return res.body as { mint: { id: number }; payment: { address: string; amount_nano: string; comment: string } }
}

const statusOf = async (id: number) => ((await user.call('GET', '/mint/')).body.items as Array<{ id: number; status: string }>).find((m) => m.id === id)?.status

/** What the treasury received in its last transaction (the message's value as delivered). */
const lastReceived = () => {
  const m = s.ton.chain.transactionsOf(s.ton.treasuryAddress).at(-1)!.tx.inMessage!
  return m.info.type === 'internal' ? m.info.value.coins : 0n
}

const refundsOf = (id: number) =>
  s.ton.chain
    .transactionsOf(s.ton.treasuryAddress)
    .flatMap((t) => [...t.tx.outMessages.values()])
    .filter((m) => readComment(m.body)?.startsWith(`axiom:refund:${id}:`))

const paidNanoOf = async (id: number) => big((await getRow(s.ts.server.ctx.db, 'SELECT paid_nano FROM mints WHERE id = ?', id))!, 'paid_nano')

describe('a payment short by the forward fee', () => {
  it("activates the bond when the wallet is @ton/ton's, sending the bond's amount with its default send mode (0: the fee out of the value)", async () => {
    const { mint, payment } = await createMint()
    const w = s.ton.chain.devWallet(1)
    const client = new TonClient4({ endpoint: s.ton.v4Endpoint, timeout: 5000 })
    const wallet = client.open(w.wallet)
    await wallet.sendTransfer({
      seqno: await wallet.getSeqno(),
      secretKey: w.keyPair.secretKey,
      messages: [internal({ to: Address.parse(payment.address), value: BigInt(payment.amount_nano), body: commentCell(payment.comment), bounce: true })],
    })
    // /send answers at acceptance: the payment is credited once its block is read.
    await eventually(async () => (await statusOf(mint.id)) === 'active')
    await s.ton.watcher.idle()
    const received = lastReceived()
    const short = BigInt(payment.amount_nano) - received
    // The ground: the treasury got less than the wallet was asked to send, by the forward fee.
    expect(short).toBeGreaterThan(0n)
    expect(short).toBeLessThanOrEqual(FORWARD_FEE_TOLERANCE_NANO)
    expect(await statusOf(mint.id)).toBe('active')
    expect(s.ton.watcher.records.at(-1)).toMatchObject({
      mintId: BigInt(mint.id),
      outcome: 'activated',
      amountNano: received,
      detail: expect.stringContaining(`${short} nanoton short of ${payment.amount_nano}`),
    })
    expect(refundsOf(mint.id)).toEqual([])
    // The bond is credited at its full amount.
    expect(await paidNanoOf(mint.id)).toBe(BigInt(payment.amount_nano))
  })

  it('activates the bond paid with send mode 0 from a dev wallet, and one short by exactly the tolerance', async () => {
    const first = await createMint()
    await s.ton.chain.transfer(
      s.ton.chain.devWallet(2),
      [{ to: s.ton.treasuryAddress, value: BigInt(first.payment.amount_nano), body: commentCell(first.payment.comment), bounce: true }],
      { sendMode: SendMode.NONE },
    )
    await s.ton.watcher.idle()
    expect(lastReceived()).toBeLessThan(BigInt(first.payment.amount_nano))
    expect(await statusOf(first.mint.id)).toBe('active')

    const edge = await createMint()
    const value = BigInt(edge.payment.amount_nano) - FORWARD_FEE_TOLERANCE_NANO
    await s.ton.chain.transfer(s.ton.chain.devWallet(2), [{ to: s.ton.treasuryAddress, value, body: commentCell(edge.payment.comment), bounce: true }])
    await s.ton.watcher.idle()
    expect(lastReceived()).toBe(value)
    expect(await statusOf(edge.mint.id)).toBe('active')
    expect(refundsOf(edge.mint.id)).toEqual([])
  })

  it('refunds a payment short by more than the tolerance (underpaid); the bond stays pending', async () => {
    const { mint, payment } = await createMint()
    const value = BigInt(payment.amount_nano) - FORWARD_FEE_TOLERANCE_NANO - 1n
    await s.ton.chain.transfer(s.ton.chain.devWallet(2), [{ to: s.ton.treasuryAddress, value, body: commentCell(payment.comment), bounce: true }])
    await s.ton.watcher.idle()
    expect(await statusOf(mint.id)).toBe('pending')
    expect(s.ton.watcher.records.at(-1)).toMatchObject({ mintId: BigInt(mint.id), outcome: 'refunded', reason: 'underpaid' })
    // The refund is sent; it leaves the treasury in the next block.
    await eventually(() => refundsOf(mint.id).length > 0)
    expect(refundsOf(mint.id)).toHaveLength(1)
  })
})
