import { toNano } from '@ton/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { localTreasuryAddress } from '../../stand-ins/chain/dev-keys.ts'
import { commentCell, LocalChain, readComment } from '../../stand-ins/chain/local-chain.ts'
import { createPaymentWatcher, TREASURY_CURSOR, type MintPayee, type PaymentWatcher } from '../../stand-ins/chain/watcher.ts'
import type { Lease } from '../../server/main.ts'
import { startTestServer, type Session, type TestServer } from '../server/support.ts'

/**
 * The payment watcher keeps its place in the backend (SQLite here): a watcher started on the same
 * database handles what came while none ran, once, and nothing that was handled before.
 */
let ts: TestServer
let chain: LocalChain
let referrer: Session
let buyer: Session
const watchers: PaymentWatcher[] = []

beforeAll(async () => {
  ts = await startTestServer({ treasuryAddress: localTreasuryAddress() })
  ts.clock.now = Math.floor(Date.now() / 1000)
  chain = await LocalChain.create({ devWallets: 3 })
  referrer = await ts.login(8100)
  buyer = await ts.login(8101, (await referrer.call('GET', '/user/me')).body.ref_code)
})
afterAll(async () => {
  for (const w of watchers) w.stop()
  await ts?.close()
})

const watch = async (lease?: Lease, backend: MintPayee = ts.server) => {
  const w = createPaymentWatcher(chain, backend, { lease: lease ?? (await ts.server.lease('chain-watcher')), retryMs: 50 })
  watchers.push(w)
  return w
}

let nextAmount = 10
/** A pending bond and the TON it asks for; the payment comment is written here, by hand. */
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

/** What came back to dev wallet `index` from the treasury: the refunds, by comment. */
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

describe('the payment watcher across a restart', () => {
  it('catches up from the cursor: what came while it was stopped is handled once, what was handled before is not', async () => {
    const first = await watch()
    const one = await bond()
    await pay(1, one.nano, `axiom:mint:${one.id}`)
    await first.idle()
    const paidOnce = await mint(one.id)
    expect(paidOnce?.status).toBe('active')
    expect(first.records.map((r) => [r.mintId, r.outcome])).toEqual([[one.id, 'activated']])
    expect(await ts.server.readChainCursor(TREASURY_CURSOR)).toEqual(lastTreasuryTx())
    first.stop()

    // While no watcher runs: bond 2 is paid, and bond 1 a second time (from another wallet).
    const two = await bond()
    await pay(1, two.nano, `axiom:mint:${two.id}`)
    await pay(2, one.nano, `axiom:mint:${one.id}`)
    await first.idle()
    expect((await mint(two.id))?.status).toBe('pending')
    expect(refundsTo(2)).toEqual([])
    expect(first.records).toHaveLength(1)

    const second = await watch()
    await second.idle()
    expect((await mint(two.id))?.status).toBe('active')
    expect(second.records.map((r) => [r.mintId, r.outcome, r.reason])).toEqual([
      [two.id, 'activated', undefined],
      [one.id, 'refunded', 'duplicate'],
    ])
    expect(refundsTo(2)).toEqual([`axiom:refund:${one.id}:duplicate`])
    expect(refundsTo(1)).toEqual([])
    // Bond 1 was not paid again: same activation, one referral bonus.
    expect(await mint(one.id)).toEqual(paidOnce)
    expect(await bonusesFor(one.id)).toHaveLength(1)
    expect(await bonusesFor(two.id)).toHaveLength(1)
    // The cursor is past the refund the watcher sent too: the last transaction of the treasury.
    expect(await ts.server.readChainCursor(TREASURY_CURSOR)).toEqual(lastTreasuryTx())
    second.stop()

    // Nothing new: a third watcher handles nothing and refunds nothing.
    const third = await watch()
    await third.idle()
    expect(third.records).toEqual([])
    expect(refundsTo(2)).toEqual([`axiom:refund:${one.id}:duplicate`])
    third.stop()
  })

  it('a payment arriving while the watcher catches up is handled once, after the older ones', async () => {
    const stopped = await bond()
    await pay(1, stopped.nano, `axiom:mint:${stopped.id}`)
    await pay(2, toNano('0.5'), 'a plain top-up')
    const live = await bond()
    const w = await watch()
    // Paid at once after the start, whether the catch-up is done or not.
    await pay(1, live.nano, `axiom:mint:${live.id}`)
    await pay(1, live.nano, `axiom:mint:${live.id}`)
    await w.idle()
    expect(w.records.map((r) => [r.mintId, r.outcome, r.reason])).toEqual([
      [stopped.id, 'activated', undefined],
      [null, 'ignored', undefined],
      [live.id, 'activated', undefined],
      [live.id, 'refunded', 'duplicate'],
    ])
    expect(new Set(w.records.map((r) => r.txHash)).size).toBe(4)
    expect((await mint(live.id))?.status).toBe('active')
    expect(await bonusesFor(live.id)).toHaveLength(1)
    expect(refundsTo(1)).toEqual([`axiom:refund:${live.id}:duplicate`])
    expect(await ts.server.readChainCursor(TREASURY_CURSOR)).toEqual(lastTreasuryTx())
    w.stop()
  })

  it('handles nothing while its lease is elsewhere, and catches up each time it takes it', async () => {
    // A lease moved by hand: what RunningServer.lease gives on PostgreSQL, where another instance may hold it.
    let held = false
    const onTake: Array<() => void> = []
    const lease: Lease = { held: () => held, onAcquired: (fn) => void (onTake.push(fn), held && fn()) }
    const take = () => {
      held = true
      for (const fn of onTake) fn()
    }
    const w = await watch(lease)
    const paid = await bond()
    await pay(1, paid.nano, `axiom:mint:${paid.id}`)
    await w.idle()
    expect(w.records).toEqual([])
    expect((await mint(paid.id))?.status).toBe('pending')

    take()
    await w.idle()
    expect(w.records.map((r) => [r.mintId, r.outcome])).toEqual([[paid.id, 'activated']])

    held = false
    await pay(2, paid.nano, `axiom:mint:${paid.id}`)
    await w.idle()
    expect(w.records).toHaveLength(1)
    expect(refundsTo(2)).not.toContain(`axiom:refund:${paid.id}:duplicate`)
    take()
    await w.idle()
    expect(w.records.map((r) => [r.mintId, r.outcome, r.reason])).toEqual([
      [paid.id, 'activated', undefined],
      [paid.id, 'refunded', 'duplicate'],
    ])
    expect(refundsTo(2).filter((c) => c === `axiom:refund:${paid.id}:duplicate`)).toHaveLength(1)
    expect(await bonusesFor(paid.id)).toHaveLength(1)
    w.stop()
  })

  it('a backend that fails mid-payment: the payment is tried again from the cursor and credited once', async () => {
    let failures = 1
    const flaky: MintPayee = {
      now: ts.server.now,
      bondPayment: ts.server.bondPayment,
      readChainCursor: ts.server.readChainCursor,
      advanceChainCursor: ts.server.advanceChainCursor,
      creditBondPayment: async (...args) => {
        if (failures-- > 0) throw new Error('connection reset')
        return ts.server.creditBondPayment(...args)
      },
    }
    const w = await watch(undefined, flaky)
    await w.idle()
    const paid = await bond()
    await pay(1, paid.nano, `axiom:mint:${paid.id}`)
    const until = Date.now() + 5_000
    while (w.records.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20))
    await w.idle()
    // Refused once, then credited: one record, one activation, one referral bonus.
    expect(failures).toBe(-1)
    expect(w.records.map((r) => [r.mintId, r.outcome])).toEqual([[paid.id, 'activated']])
    expect((await mint(paid.id))?.status).toBe('active')
    expect(await bonusesFor(paid.id)).toHaveLength(1)
    expect(await ts.server.readChainCursor(TREASURY_CURSOR)).toEqual(lastTreasuryTx())
    w.stop()
  })
})
