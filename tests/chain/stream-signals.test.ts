import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commentCell } from '../../stand-ins/chain/local-chain.ts'
import type { LiveSocket, Session } from '../server/support.ts'
import { eventually, startStack, type Stack } from './support.ts'

/**
 * The user hears of a payment as the chain's stream sees it (chain:payment), before the watcher
 * credits it: on the clocked local chain with its Streaming API, as `npm start` runs it.
 */
let s: Stack
let user: Session
let live: LiveSocket
beforeAll(async () => {
  s = await startStack({ blockIntervalMs: 400, stream: true, watchIntervalMs: 60_000, payoutIntervalMs: 0 })
  user = await s.ts.login(8201)
  await s.ts.server.admin.credit(8201, '500')
  live = await s.ts.socket(user)
})
afterAll(async () => {
  live?.close()
  await s?.close()
})

describe('chain:payment from the stream', () => {
  it("a bond's payment is seen at acceptance, before its user:mint active", async () => {
    const res = await user.call('POST', '/mint/create', { body: { amount: 25, days: 30 } })
    expect(res.status).toBe(200)
    const { mint, payment } = res.body as { mint: { id: number }; payment: { amount_nano: string; comment: string } }
    const order: string[] = []
    const chain = s.ton.chain
    const ext = await chain.signedTransfer(chain.devWallet(0), [{ to: chain.treasury.wallet.address, value: BigInt(payment.amount_nano), body: commentCell(payment.comment) }])
    const accepted = await chain.accept(ext)
    const seen = live.next('chain:payment', (d) => d.kind === 'bond' && d.id === mint.id && d.state === 'seen', 5000).then((d) => order.push('seen') && d)
    const active = live.next('user:mint', (d) => d.id === mint.id && d.status === 'active', 10_000).then(() => order.push('active'))
    await accepted.included
    await Promise.all([seen, active])
    expect(order).toEqual(['seen', 'active'])
  })

  it("a sale's payout is told sent, then paid", async () => {
    const res = await user.call('POST', '/withdraw/create', { body: { token_amount: '2', address: s.ton.chain.devWallet(1).friendly } })
    expect(res.status).toBe(200)
    const id = Number(res.body.id)
    const sent = live.next('chain:payment', (d) => d.kind === 'sale' && d.id === id && d.state === 'sent', 10_000)
    const paid = live.next('chain:payment', (d) => d.kind === 'sale' && d.id === id && d.state === 'paid', 10_000)
    // The treasury's message finalized (two blocks after its own): the stream's last word on it.
    const treasury = s.ton.chain.treasury.wallet.address
    const finalized = new Promise<void>((resolve) => {
      const off = s.ton.chain.onTrace((e) => {
        if (e.type === 'trace' && e.finality === 'finalized' && e.txs.some((t) => t.address.equals(treasury) && t.tx.inMessage?.info.type === 'external-in')) {
          off()
          resolve()
        }
      })
    })
    // A pass the stream woke for an earlier block may be under way, begun before this sale: a pass
    // asked for meanwhile is that one, so passes are asked for until one has taken the sale.
    await eventually(async () => (await s.ton.payouts.processOnce(), (await s.ton.service.outgoing()).some((r) => r.withdrawalId === BigInt(id))))
    await sent
    await paid
    await finalized
    // Its notice crosses the stream and a pass after it; then each was told once (not `sent` again
    // by the finalized snapshot, nor `paid` twice by passes that overlap).
    await new Promise((r) => setTimeout(r, 1_000))
    const told = live.events.filter((e) => e.event === 'chain:payment' && e.data.kind === 'sale' && e.data.id === id).map((e) => e.data.state)
    // Beyond the two `next` took: none.
    expect(told).toEqual([])
  })
})
