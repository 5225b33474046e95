import { TonClient4 } from '@ton/ton'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expireUnpaidBondsAsSeen, readChainSeen, SHARD_LAG_S } from '../../server/domain/chain-cursor.ts'
import { PAYMENT_VALIDITY_S, UNPAID_BOND_EXPIRY_S } from '../../server/domain/mints.ts'
import { createChainWatcher, TREASURY_CURSOR, type ChainWatcher } from '../../server/chain/watcher.ts'
import { commentCell, type LocalChain } from '../../stand-ins/chain/local-chain.ts'
import type { FaultProxy } from '../support/fault-proxy.ts'
import type { Session, TestServer } from '../server/support.ts'
import { backendWithV4BehindProxy } from './support.ts'

/**
 * An unpaid bond is cancelled 15 minutes after its creation, but its payment is judged by the
 * transaction's own time (60 s to pay). A watcher that was down longer than that used to find a
 * payment made in time on a bond already cancelled, and refund it. The expiry now waits until the
 * watcher has seen the chain past the bond's payment window (chain_seen).
 */
let ts: TestServer
let chain: LocalChain
let v4: { close(): Promise<void> }
let proxy: FaultProxy
let buyer: Session
let watcher: ChainWatcher

const wall = () => Math.floor(Date.now() / 1000)

beforeAll(async () => {
  ;({ ts, chain, v4, proxy } = await backendWithV4BehindProxy())
  buyer = await ts.login(8201)
  watcher = createChainWatcher(ts.server.ctx, {
    client: new TonClient4({ endpoint: proxy.url, timeout: 1500 }),
    treasury: chain.treasury.wallet.address,
    lease: await ts.server.lease('chain-watcher'),
    fromStart: true,
    maxFailures: 5,
    log: () => undefined,
  })
})
afterAll(async () => {
  await proxy?.close()
  await v4?.close()
  await ts?.close()
})

/** A bond created now, the server's clock set to the wall's (the chain's clock) first. */
const bond = async (amount: number) => {
  ts.clock.now = wall()
  const res = await buyer.call('POST', '/mint/create', { body: { amount, days: 30 } })
  expect(res.status).toBe(200)
  return { id: BigInt(res.body.mint.id), nano: BigInt(res.body.payment.amount_nano), createdAt: ts.clock.now }
}

const pay = (b: { id: bigint; nano: bigint }) =>
  chain.transfer(chain.devWallet(1), [{ to: chain.treasury.address, value: b.nano, body: commentCell(`axiom:mint:${b.id}`), bounce: true }])

/** Read from the backend (the buyer's session expires as the test moves the clock on). */
const statusOf = async (id: bigint) => (await ts.server.bondPayment(id))?.status

describe('unpaid bonds expire as far as the chain has been watched', () => {
  it('a payment made in time, seen only after the expiry by a watcher that was down, activates its bond', async () => {
    await watcher.pass()
    const seenBefore = await readChainSeen(ts.server.ctx, TREASURY_CURSOR)
    expect(seenBefore).not.toBeNull()

    const paid = await bond(11)
    await pay(paid)
    // The watcher is down; the server's clock goes 16 minutes on and the periodic pass runs.
    ts.clock.advance(UNPAID_BOND_EXPIRY_S + 60)
    await ts.server.admin.settleAll()
    expect(await statusOf(paid.id)).toBe('pending')

    await watcher.pass()
    expect(watcher.decided.map((r) => [r.mintId, r.outcome, r.reason])).toEqual([[paid.id, 'activated', null]])
    expect(await statusOf(paid.id)).toBe('active')
    expect(await readChainSeen(ts.server.ctx, TREASURY_CURSOR)).toBeGreaterThanOrEqual(seenBefore!)
  })

  it('once the watcher has seen the chain past the payment window, the unpaid bond is cancelled and a late payment refunded', async () => {
    const unpaid = await bond(12)
    ts.clock.advance(UNPAID_BOND_EXPIRY_S + 1)
    await watcher.pass()
    await ts.server.admin.settleAll()
    // The chain's clock is the wall's: its window (and the shard margin) are not behind the watcher yet.
    expect(await statusOf(unpaid.id)).toBe('pending')

    chain.blockchain.now = unpaid.createdAt + PAYMENT_VALIDITY_S + SHARD_LAG_S + 1
    try {
      await watcher.pass()
      expect(await readChainSeen(ts.server.ctx, TREASURY_CURSOR)).toBe(chain.blockchain.now)
      await ts.server.admin.settleAll()
      expect(await statusOf(unpaid.id)).toBe('canceled')

      const before = watcher.decided.length
      await pay(unpaid)
      await watcher.pass()
      expect(watcher.decided.slice(before).map((r) => [r.mintId, r.outcome, r.reason])).toEqual([[unpaid.id, 'refunded', 'not_pending']])
    } finally {
      chain.blockchain.now = undefined
    }
  })

  it('a slower watcher never moves the seen time back', async () => {
    const seen = (await readChainSeen(ts.server.ctx, TREASURY_CURSOR))!
    const { recordChainSeen } = await import('../../server/domain/chain-cursor.ts')
    await recordChainSeen(ts.server.ctx, TREASURY_CURSOR, seen - 500)
    expect(await readChainSeen(ts.server.ctx, TREASURY_CURSOR)).toBe(seen)
  })

  it('a deployment whose watcher has not reported cancels nothing; one with no watcher goes by the clock', async () => {
    const b = await bond(13)
    ts.clock.advance(UNPAID_BOND_EXPIRY_S + 1)
    expect(await expireUnpaidBondsAsSeen(ts.server.ctx, { name: 'not-reported-yet', watched: true })).toBe(0)
    expect(await statusOf(b.id)).toBe('pending')
    expect(await expireUnpaidBondsAsSeen(ts.server.ctx, { name: 'not-reported-yet', watched: false })).toBeGreaterThanOrEqual(1)
    expect(await statusOf(b.id)).toBe('canceled')
  })
})
