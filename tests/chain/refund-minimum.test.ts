import { toNano } from '@ton/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commentCell, readComment } from '../../stand-ins/chain/local-chain.ts'
import { MIN_REFUND_NANO, REFUND_FEE_NANO } from '../../server/main.ts'
import type { Session } from '../server/support.ts'
import { eventually, startStack, type Stack } from './support.ts'

let s: Stack
let user: Session

beforeAll(async () => {
  s = await startStack()
  user = await s.ts.login(7001)
})
afterAll(async () => s?.close())

/** Pays from dev wallet `index` to the treasury with `comment`. */
const pay = (index: number, value: bigint, comment: string) =>
  s.ton.chain.transfer(s.ton.chain.devWallet(index), [{ to: s.ton.treasuryAddress, value, body: commentCell(comment), bounce: true }])

const refundsTo = (index: number) =>
  s.ton.chain
    .transactionsOf(s.ton.chain.devWallet(index).address)
    .map((t) => t.tx.inMessage)
    .filter((m) => m?.info.type === 'internal' && readComment(m.body)?.startsWith('axiom:refund:'))
    .map((m) => ({ comment: readComment(m!.body), value: m!.info.type === 'internal' ? m!.info.value.coins : 0n }))

/** Transactions of the treasury it started itself (external messages: its own sends, refunds included). */
const treasurySends = () => s.ton.chain.transactionsOf(s.ton.treasuryAddress).filter((t) => t.tx.inMessage?.info.type === 'external-in').length

/** The least refused payment that is refunded: the least refund, plus the network fee kept from it. */
const THRESHOLD = MIN_REFUND_NANO + REFUND_FEE_NANO

describe('the refund minimum and fee', () => {
  it('keeps a dust payment with a wrong comment: no refund, and the treasury pays no fee for it', async () => {
    const dust = toNano('0.001')
    expect(dust).toBeLessThan(MIN_REFUND_NANO)
    const refundsBefore = refundsTo(2).length
    const sendsBefore = treasurySends()
    const before = await s.ton.chain.balance(s.ton.treasuryAddress)
    await pay(2, dust, 'axiom:mint:999999')
    await s.ton.watcher.idle()
    expect(s.ton.watcher.records.at(-1)).toMatchObject({
      outcome: 'kept',
      reason: 'unknown_bond',
      mintId: 999999n,
      amountNano: dust,
      detail: expect.stringContaining('below the refund minimum'),
    })
    expect(refundsTo(2).length).toBe(refundsBefore)
    expect(treasurySends()).toBe(sendsBefore)
    // Only the treasury's own receive fee comes off what arrived: it does not lose money on dust.
    const after = await s.ton.chain.balance(s.ton.treasuryAddress)
    expect(after).toBeGreaterThan(before)
    expect(after).toBeLessThanOrEqual(before + dust)
  })

  it('keeps an under-payment of a pending bond just below the minimum plus the fee; the bond stays pending', async () => {
    const { mint } = (await user.call('POST', '/mint/create', { body: { amount: 10, days: 30 } })).body
    const refundsBefore = refundsTo(1).length
    await pay(1, THRESHOLD - 1n, `axiom:mint:${mint.id}`)
    await s.ton.watcher.idle()
    expect(s.ton.watcher.records.at(-1)).toMatchObject({ outcome: 'kept', reason: 'underpaid', mintId: BigInt(mint.id) })
    expect(refundsTo(1).length).toBe(refundsBefore)
    const items = (await user.call('GET', '/mint/')).body.items as Array<{ id: number; status: string }>
    expect(items.find((m) => m.id === mint.id)?.status).toBe('pending')
  })

  it('keeps 0.01 TON paid with an unknown bond id: a refund of it would not cover its own fee', async () => {
    const sendsBefore = treasurySends()
    const refundsBefore = refundsTo(2).length
    const before = await s.ton.chain.balance(s.ton.treasuryAddress)
    await pay(2, toNano('0.01'), 'axiom:mint:999995')
    await s.ton.watcher.idle()
    expect(s.ton.watcher.records.at(-1)).toMatchObject({ outcome: 'kept', reason: 'unknown_bond', detail: expect.stringContaining('plus the network fee') })
    expect(refundsTo(2).length).toBe(refundsBefore)
    expect(treasurySends()).toBe(sendsBefore)
    expect(await s.ton.chain.balance(s.ton.treasuryAddress)).toBeGreaterThan(before)
  })

  it('refunds a mismatched payment at the minimum plus the fee, less the fee; the treasury does not lose by it', async () => {
    const sendsBefore = treasurySends()
    const before = await s.ton.chain.balance(s.ton.treasuryAddress)
    await pay(2, THRESHOLD, 'axiom:mint:999998')
    await s.ton.watcher.idle()
    expect(s.ton.watcher.records.at(-1)).toMatchObject({ outcome: 'refunded', reason: 'unknown_bond' })
    // The refund is sent; it leaves the treasury in the next block.
    await eventually(() => refundsTo(2).some((r) => r.comment === 'axiom:refund:999998:unknown_bond'))
    expect(refundsTo(2)).toContainEqual({ comment: 'axiom:refund:999998:unknown_bond', value: MIN_REFUND_NANO })
    expect(treasurySends()).toBe(sendsBefore + 1)
    // What receiving and refunding it cost the treasury (a v4r2 wallet here): gas, forward fee, and
    // storage (here the treasury's first send, so all storage since the chain started: its dearest
    // refund). Measured 2026-11-28: 0.0028 TON. The fee kept covers it at least twice over.
    const gained = (await s.ton.chain.balance(s.ton.treasuryAddress)) - before
    const cost = REFUND_FEE_NANO - gained
    expect(cost).toBeGreaterThan(0n)
    expect(cost * 2n).toBeLessThan(REFUND_FEE_NANO)
    expect(gained).toBeGreaterThan(0n)
  })

  it('refunds a normal mismatched payment less the fee', async () => {
    const before = await s.ton.chain.balance(s.ton.treasuryAddress)
    await pay(2, toNano('1'), 'axiom:mint:999997')
    await s.ton.watcher.idle()
    expect(s.ton.watcher.records.at(-1)).toMatchObject({ outcome: 'refunded', reason: 'unknown_bond' })
    await eventually(() => refundsTo(2).some((r) => r.comment === 'axiom:refund:999997:unknown_bond'))
    expect(refundsTo(2)).toContainEqual({ comment: 'axiom:refund:999997:unknown_bond', value: toNano('1') - REFUND_FEE_NANO })
    expect(await s.ton.chain.balance(s.ton.treasuryAddress)).toBeGreaterThan(before)
  })

  it('keeps dust without a bond comment as before (ignored)', async () => {
    const sendsBefore = treasurySends()
    await pay(2, toNano('0.005'), 'hello')
    await s.ton.watcher.idle()
    expect(s.ton.watcher.records.at(-1)).toMatchObject({ outcome: 'ignored', comment: 'hello' })
    expect(treasurySends()).toBe(sendsBefore)
  })

  it('passes over a transaction too poor to run (aborted): nothing recorded, nothing sent', async () => {
    const sendsBefore = treasurySends()
    const recordsBefore = s.ton.watcher.records.length
    await pay(2, 1000n, 'axiom:mint:999996')
    await s.ton.watcher.idle()
    const last = s.ton.chain.transactionsOf(s.ton.treasuryAddress).at(-1)!.tx
    expect(last.description.type === 'generic' && last.description.aborted).toBe(true)
    expect(s.ton.watcher.records.length).toBe(recordsBefore)
    expect(treasurySends()).toBe(sendsBefore)
  })
})
