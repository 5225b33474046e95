import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bondPaymentComment } from '../../core/domain/bond-payment.ts'
import { OperationHistory } from '../../core/domain/entities/market.ts'
import { decidePayment, outgoingPayments, REFUND_FEE_NANO } from '../../server/chain/payment-rows.ts'
import { PAYMENT_VALIDITY_S } from '../../server/domain/mints.ts'
import { decode, SOME_ADDRESS, startTestServer, TEST_ENGINE, type Session, type TestServer } from './support.ts'

/**
 * A bond payment the chain watcher refunds (it came after the bond's time to pay, or for a bond that
 * is no longer waiting) is a money event of the bond's owner: the history shows the coin going back
 * to the wallet, in GRAM, written in the refund's own transaction. Plain HTTP against the real
 * backend; the payment decided as the watcher decides it (decidePayment), on the engine of the run.
 */
let t: TestServer
let me: Session
let other: Session
beforeAll(async () => {
  t = await startTestServer()
  me = await t.login(9201)
  other = await t.login(9202)
})
afterAll(() => t?.close())

type Row = { type: string; amount: string; unit: string; balance: string; description: string; description_key: string | null; description_params: Record<string, string | number> | null }

const history = async (who: Session): Promise<Row[]> => {
  const res = await who.call('GET', '/operations/history', { query: { size: 100 } })
  expect(res.status).toBe(200)
  // The app's own schema reads every row.
  decode(OperationHistory, res.body)
  return (res.body as { items: Row[] }).items
}

const nanoText = (nano: bigint) => `${nano / 1_000_000_000n}.${String(nano % 1_000_000_000n).padStart(9, '0')}`.replace(/\.?0+$/, '')

let lt = 1_000n
let cursor: { lt: bigint; txHash: string } | null = null
/** One inbound payment decided as the watcher decides it, the cursor moved past it. */
const pay = async (comment: string, amountNano: bigint, txNow: number) => {
  lt += 10n
  const txHash = lt.toString(16).padStart(64, '0')
  const to = { lt, txHash }
  const record = await decidePayment(t.server.ctx, { txHash, lt, txNow, from: SOME_ADDRESS, amountNano, comment }, { name: `refund-history-${TEST_ENGINE}`, from: cursor, to })
  cursor = to
  return record
}

const pendingBond = async (who: Session, amount: number) => {
  const created = await who.call('POST', '/mint/create', { body: { amount, days: 30 } })
  expect(created.status, JSON.stringify(created.body)).toBe(200)
  return { id: BigInt(created.body.mint.id), due: BigInt(created.body.payment.amount_nano), createdAt: t.clock.now }
}

describe(`a refunded bond payment in the operations history (${TEST_ENGINE})`, () => {
  it('a payment after the bond expired: refunded less the network fee, and the owner’s history shows it in GRAM, into the wallet', async () => {
    const bond = await pendingBond(me, 12)
    const late = await pay(bondPaymentComment(bond.id), bond.due, bond.createdAt + PAYMENT_VALIDITY_S + 60)
    expect(late).toMatchObject({ outcome: 'refunded', reason: 'expired' })
    const refund = (await outgoingPayments(t.server.ctx)).find((o) => o.kind === 'refund' && o.comment.includes(`:${bond.id}:`))
    expect(refund?.amountNano).toBe(bond.due - REFUND_FEE_NANO)

    const rows = (await history(me)).filter((r) => r.type === 'bond_refund')
    expect(rows).toEqual([
      expect.objectContaining({
        amount: nanoText(bond.due - REFUND_FEE_NANO),
        unit: 'GRAM',
        balance: 'wallet',
        description: `Refund of bond #${bond.id} payment`,
        description_key: 'operation.bond_refund',
        description_params: expect.objectContaining({ bond: String(bond.id), bond_number: 1 }),
      }),
    ])
    // No one else's history holds it.
    expect((await history(other)).filter((r) => r.type === 'bond_refund')).toEqual([])
  })

  it('a second payment for a bond already paid is refunded too, with its own row; the paid one stays as it was', async () => {
    const bond = await pendingBond(me, 13)
    expect(await pay(bondPaymentComment(bond.id), bond.due, bond.createdAt + 5)).toMatchObject({ outcome: 'activated' })
    expect(await pay(bondPaymentComment(bond.id), bond.due, bond.createdAt + 10)).toMatchObject({ outcome: 'refunded', reason: 'duplicate' })
    const rows = await history(me)
    expect(rows.filter((r) => r.type === 'bond_refund' && r.description === `Refund of bond #${bond.id} payment`).map((r) => [r.amount, r.unit])).toEqual([
      [nanoText(bond.due - REFUND_FEE_NANO), 'GRAM'],
    ])
    expect(rows.filter((r) => r.type === 'bond_paid' && r.description === `Bond #${bond.id} bought`)).toHaveLength(1)
  })

  it('a payment kept (too small to refund) and one naming no bond write no history row', async () => {
    const before = (await history(me)).length
    const bond = await pendingBond(me, 14)
    expect(await pay(bondPaymentComment(bond.id), REFUND_FEE_NANO, bond.createdAt + PAYMENT_VALIDITY_S + 60)).toMatchObject({ outcome: 'kept' })
    expect(await pay(bondPaymentComment(999_999_999), 1_000_000_000n, bond.createdAt)).toMatchObject({ outcome: 'refunded', reason: 'unknown_bond' })
    expect((await history(me)).length).toBe(before)
  })
})
