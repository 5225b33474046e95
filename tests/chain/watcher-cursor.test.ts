import { toNano } from '@ton/core'
import { TonClient4 } from '@ton/ton'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decidePayment } from '../../server/chain/payment-rows.ts'
import { createPayoutSender } from '../../server/chain/payouts.ts'
import { createChainWatcher, TREASURY_CURSOR, type ChainWatcher } from '../../server/chain/watcher.ts'
import type { Lease } from '../../server/main.ts'
import { commentCell, LocalChain, readComment } from '../../stand-ins/chain/local-chain.ts'
import { TX_PAGE } from '../../stand-ins/chain/v4-api.ts'
import type { FaultProxy } from '../support/fault-proxy.ts'
import type { Session, TestServer } from '../server/support.ts'
import { backendWithV4BehindProxy } from './support.ts'

/**
 * The watcher (server/chain/watcher.ts) reads the treasury through TonClient4 and keeps its place in
 * the backend: a watcher started on the same database handles what came while none ran, once, oldest
 * first, paging back through the history; nothing handled before is handled again.
 */
let ts: TestServer
let chain: LocalChain
let v4: { url: string; close(): Promise<void> }
let proxy: FaultProxy
let referrer: Session
let buyer: Session

beforeAll(async () => {
  // One buyer pays more than a page of bonds while the watcher is down, and they stay pending until
  // it is back: the cap on a user's pending bonds (5 by default) is lifted for this history.
  ;({ ts, chain, v4, proxy } = await backendWithV4BehindProxy({ maxPendingMints: 1_000 }))
  referrer = await ts.login(8100)
  buyer = await ts.login(8101, (await referrer.call('GET', '/user/me')).body.ref_code)
})
afterAll(async () => {
  await proxy?.close()
  await v4?.close()
  await ts?.close()
})

const client = () => new TonClient4({ endpoint: proxy.url, timeout: 1500 })
const quiet = () => undefined

const watch = async (lease?: Lease): Promise<ChainWatcher> =>
  createChainWatcher(ts.server.ctx, {
    client: client(),
    treasury: chain.treasury.wallet.address,
    lease: lease ?? (await ts.server.lease('chain-watcher')),
    fromStart: true,
    maxFailures: 5,
    log: quiet,
  })

/** Sends the refunds the watchers queued, and lets `w` see them land. */
const settle = async (w: ChainWatcher) => {
  await w.pass()
  const payouts = createPayoutSender(ts.server.ctx, {
    client: client(),
    treasury: { version: 'v4r2', keyPair: chain.treasury.keyPair, wallet: chain.treasury.wallet },
    lease: await ts.server.lease('payouts'),
    maxFailures: 5,
    log: quiet,
  })
  await payouts.pass()
  await w.pass()
}

let nextAmount = 10
const bond = async () => {
  const res = await buyer.call('POST', '/mint/create', { body: { amount: nextAmount++, days: 30 } })
  expect(res.status).toBe(200)
  return { id: BigInt(res.body.mint.id), nano: BigInt(res.body.payment.amount_nano) }
}

const pay = (wallet: number, value: bigint, comment: string) =>
  chain.transfer(chain.devWallet(wallet), [{ to: chain.treasury.address, value, body: commentCell(comment), bounce: true }])

const mint = async (id: bigint) => {
  const list = await buyer.call('GET', '/mint/')
  return (list.body.items as Array<{ id: number | string; status: string; activated_at: number | null }>).find((m) => String(m.id) === String(id))
}

const refundsTo = (index: number) =>
  chain
    .transactionsOf(chain.devWallet(index).address)
    .map((t) => t.tx.inMessage)
    .filter((m) => m?.info.type === 'internal' && m.info.src.equals(chain.treasury.wallet.address))
    .map((m) => readComment(m!.body))

const bonusesFor = async (id: bigint) =>
  ((await referrer.call('GET', '/operations/history', { query: { page: 1, size: 100 } })).body.items as Array<{ description: string }>).filter(
    (o) => o.description === `Referral bonus for bond #${id}`,
  )

const lastTreasuryTx = () => {
  const t = chain.transactionsOf(chain.treasury.wallet.address).at(-1)!
  return { lt: t.tx.lt, txHash: t.tx.hash().toString('hex') }
}

const outcomes = (w: ChainWatcher) => w.decided.map((r) => [r.mintId, r.outcome, r.reason])

describe('the payment watcher across a restart, through TonClient4', () => {
  it('catches up from the cursor: what came while it was stopped is handled once, what was handled before is not', async () => {
    const first = await watch()
    const one = await bond()
    await pay(1, one.nano, `axiom:mint:${one.id}`)
    await first.pass()
    const paidOnce = await mint(one.id)
    expect(paidOnce?.status).toBe('active')
    expect(outcomes(first)).toEqual([[one.id, 'activated', null]])
    expect(await ts.server.readChainCursor(TREASURY_CURSOR)).toEqual(lastTreasuryTx())

    // While no watcher runs: bond 2 is paid, and bond 1 a second time (from another wallet).
    const two = await bond()
    await pay(1, two.nano, `axiom:mint:${two.id}`)
    await pay(2, one.nano, `axiom:mint:${one.id}`)
    expect((await mint(two.id))?.status).toBe('pending')

    const second = await watch()
    await settle(second)
    expect((await mint(two.id))?.status).toBe('active')
    expect(outcomes(second)).toEqual([
      [two.id, 'activated', null],
      [one.id, 'refunded', 'duplicate'],
    ])
    expect(refundsTo(2)).toEqual([`axiom:refund:${one.id}:duplicate`])
    expect(refundsTo(1)).toEqual([])
    expect(await mint(one.id)).toEqual(paidOnce)
    expect(await bonusesFor(one.id)).toHaveLength(1)
    expect(await bonusesFor(two.id)).toHaveLength(1)
    // The cursor is past the refund too: the treasury's last transaction.
    expect(await ts.server.readChainCursor(TREASURY_CURSOR)).toEqual(lastTreasuryTx())

    const third = await watch()
    await settle(third)
    expect(third.decided).toEqual([])
    expect(refundsTo(2)).toEqual([`axiom:refund:${one.id}:duplicate`])
  })

  it(`after downtime pages back through more than one page (${TX_PAGE}) of history and handles it oldest first`, async () => {
    const w = await watch()
    await w.pass()
    const bonds = []
    for (let i = 0; i < TX_PAGE + 7; i++) {
      const b = await bond()
      bonds.push(b)
      await pay(1 + (i % 2), b.nano, `axiom:mint:${b.id}`)
    }
    await w.pass()
    expect(outcomes(w)).toEqual(bonds.map((b) => [b.id, 'activated', null]))
    for (const b of bonds) expect((await mint(b.id))?.status).toBe('active')
    expect(await ts.server.readChainCursor(TREASURY_CURSOR)).toEqual(lastTreasuryTx())
  })

  it('handles nothing while its lease is elsewhere, and catches up each time it takes it', async () => {
    let held = false
    const lease: Lease = { held: () => held, onAcquired: () => undefined }
    const w = await watch(lease)
    const paid = await bond()
    await pay(1, paid.nano, `axiom:mint:${paid.id}`)
    await w.pass()
    expect(w.decided).toEqual([])
    expect((await mint(paid.id))?.status).toBe('pending')
    held = true
    await w.pass()
    expect(outcomes(w)).toEqual([[paid.id, 'activated', null]])
    held = false
    await pay(2, paid.nano, `axiom:mint:${paid.id}`)
    await w.pass()
    expect(w.decided).toHaveLength(1)
    held = true
    await settle(w)
    expect(outcomes(w)).toEqual([
      [paid.id, 'activated', null],
      [paid.id, 'refunded', 'duplicate'],
    ])
    expect(refundsTo(2).filter((c) => c === `axiom:refund:${paid.id}:duplicate`)).toHaveLength(1)
    expect(await bonusesFor(paid.id)).toHaveLength(1)
  })

  for (const [what, fault] of [
    ['answers 5xx', { kind: 'status', status: 502, msg: 'bad gateway' }],
    ['drops the connection', { kind: 'drop' }],
    ['times out', { kind: 'delay', ms: 3000 }],
  ] as const) {
    it(`a v4 endpoint that ${what} while the history is read: nothing decided; the next pass credits it once`, async () => {
      const w = await watch()
      await w.pass()
      const paid = await bond()
      await pay(1, paid.nano, `axiom:mint:${paid.id}`)
      proxy.fail('/account/', fault)
      try {
        await w.pass()
      } finally {
        proxy.clear()
      }
      expect(w.decided).toEqual([])
      expect((await mint(paid.id))?.status).toBe('pending')
      await w.pass()
      await w.pass()
      expect(outcomes(w)).toEqual([[paid.id, 'activated', null]])
      expect(await bonusesFor(paid.id)).toHaveLength(1)
      expect(await ts.server.readChainCursor(TREASURY_CURSOR)).toEqual(lastTreasuryTx())
    })
  }

  it("a live deployment's first watcher (no cursor) starts after the treasury's newest transaction, reading no history", async () => {
    const before = await bond()
    await pay(1, before.nano, `axiom:mint:${before.id}`)
    const w = createChainWatcher(ts.server.ctx, {
      client: client(),
      treasury: chain.treasury.wallet.address,
      lease: await ts.server.lease('chain-watcher'),
      cursor: 'live-start',
      fromStart: false,
      maxFailures: 5,
      log: quiet,
    })
    const historyReads = proxy.seen.filter((c) => c.includes('/tx/')).length
    await w.pass()
    expect(w.decided).toEqual([])
    expect(proxy.seen.filter((c) => c.includes('/tx/')).length).toBe(historyReads)
    expect(await ts.server.readChainCursor('live-start')).toEqual(lastTreasuryTx())
    await pay(2, toNano('0.3'), 'after the start')
    await w.pass()
    expect(w.decided.map((r) => [r.outcome, r.comment])).toEqual([['ignored', 'after the start']])
  })

  it('a transaction hash is decided at most once: the unique column refuses a second decision', async () => {
    const paid = await bond()
    const p = { txHash: 'ab'.repeat(32), lt: 1n, txNow: ts.clock.now, from: chain.devWallet(1).address, amountNano: paid.nano, comment: `axiom:mint:${paid.id}` }
    await decidePayment(ts.server.ctx, p, { name: 'test-a', from: null, to: { lt: 1n, txHash: p.txHash } })
    await expect(decidePayment(ts.server.ctx, p, { name: 'test-b', from: null, to: { lt: 1n, txHash: p.txHash } })).rejects.toThrow(/UNIQUE|unique|duplicate/)
    expect((await mint(paid.id))?.status).toBe('active')
    expect(await bonusesFor(paid.id)).toHaveLength(1)
    // Nothing of the refused second decision was written: its cursor did not move.
    expect(await ts.server.readChainCursor('test-b')).toBeNull()
  })
})
