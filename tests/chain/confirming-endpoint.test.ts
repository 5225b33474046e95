import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Address, Cell, loadTransaction, type Transaction } from '@ton/core'
import { TonClient4 } from '@ton/ton'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { outgoingPayments, paymentRecords } from '../../server/chain/payment-rows.ts'
import { createChainWatcher, type ChainWatcher } from '../../server/chain/watcher.ts'
import type { Lease } from '../../server/main.ts'
import { localTreasuryAddress } from '../../stand-ins/chain/dev-keys.ts'
import { commentCell, LocalChain } from '../../stand-ins/chain/local-chain.ts'
import { forged, relinked, startLyingV4, type LyingV4 } from '../support/lying-v4.ts'
import { startTestServer, testDatabase, type Session, type TestServer } from '../server/support.ts'
import { serveV4, startStack } from './support.ts'

/**
 * A payment is credited on the word of two v4 endpoints, never one. The primary (AXIOM_TON_API) is a
 * liar in front of the honest local v4 API: it invents a payment, alters an amount or a comment, or
 * drops a transaction, keeping its history linked so that the page-by-page check cannot see it (or,
 * a careless liar, not). The confirming endpoint (AXIOM_TON_API_CONFIRM) is the honest API. None of
 * the lies credits a bond, refunds anything, or queues a payout; an honest pair credits as before.
 */

const always: Lease = { held: () => true, onAcquired: () => undefined }

let dir: string
let ts: TestServer
let chain: LocalChain
let honest: Awaited<ReturnType<typeof serveV4>>
let liar: LyingV4
let user: Session
/** What the liar shows in place of the treasury's real history (oldest first); null: the truth. */
let lie: ((real: Transaction[]) => Transaction[]) | null = null
let log: string[]
let watcher: ChainWatcher

/** The treasury's transactions as the chain has them, oldest first (cells parsed anew). */
const realHistory = () => chain.transactionsOf(chain.treasury.address).map((t) => loadTransaction(Cell.fromBoc(t.tx.raw.toBoc())[0]!.beginParse()))

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'axiom-confirm-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// Each test: a backend of its own (a database file, for the admin command), a fresh chain, its honest
// v4 API (the confirming endpoint) and the liar in front of it (the primary).
let n = 0
beforeEach(async () => {
  lie = null
  log = []
  ts = await startTestServer({ treasuryAddress: localTreasuryAddress(), dbPath: join(dir, `axiom-${++n}.db`) })
  ts.clock.now = Math.floor(Date.now() / 1000)
  chain = await LocalChain.create({ devWallets: 3 })
  honest = await serveV4(chain)
  liar = await startLyingV4(honest.url, chain.treasury.wallet.address, () => (lie ? lie(realHistory()) : null))
  user = await ts.login(9501)
  watcher = watchWith(new TonClient4({ endpoint: honest.url, timeout: 3000 }))
})
afterEach(async () => {
  await watcher?.halt()
  await liar?.close()
  await honest?.close()
  await ts?.close()
})

/** A watcher reading the liar (primary) and confirming with `confirm`; a grace of 0 s unless told. */
const watchWith = (confirm: TonClient4 | undefined, graceS = 0, fromStart = true) =>
  createChainWatcher(ts.server.ctx, {
    client: new TonClient4({ endpoint: liar.url, timeout: 3000 }),
    ...(confirm ? { confirm, confirmGraceS: graceS } : {}),
    treasury: chain.treasury.wallet.address,
    lease: always,
    fromStart,
    maxFailures: 5,
    log: (m, e) => void log.push(e === undefined ? m : `${m}: ${e instanceof Error ? e.message : String(e)}`),
  })

const newBond = async (amount: number) => {
  const res = await user.call('POST', '/mint/create', { body: { amount, days: 30 } })
  expect(res.status).toBe(200)
  return { id: BigInt(res.body.mint.id), nano: BigInt(res.body.payment.amount_nano), comment: String(res.body.payment.comment) }
}
const pay = (from: number, value: bigint, comment: string) => chain.transfer(chain.devWallet(from), [{ to: chain.treasury.address, value, body: commentCell(comment), bounce: true }])
const statusOf = async (id: bigint) => ((await user.call('GET', '/mint/')).body.items as Array<{ id: number; status: string }>).find((m) => BigInt(m.id) === id)?.status
const recordOf = async (txHash: string) => (await paymentRecords(ts.server.ctx)).find((r) => r.txHash === txHash)
const lastInbound = () => realHistory().filter((t) => t.inMessage?.info.type === 'internal').at(-1)!

/** `tx`, its inbound payment changed: another value or comment, or from another wallet; its time `now`. */
const alteredPayment = (tx: Transaction, change: { value?: bigint; comment?: string; from?: number; lt?: bigint; now?: number }): Transaction => {
  const m = tx.inMessage!
  if (m.info.type !== 'internal') throw new Error('not an internal payment')
  return forged(tx, {
    ...(change.lt !== undefined ? { lt: change.lt } : {}),
    ...(change.now !== undefined ? { now: change.now } : {}),
    inMessage: {
      ...m,
      info: {
        ...m.info,
        ...(change.value !== undefined ? { value: { coins: change.value } } : {}),
        ...(change.from !== undefined ? { src: Address.parse(chain.devWallet(change.from).address) } : {}),
      },
      body: change.comment !== undefined ? commentCell(change.comment) : m.body,
    },
  })
}

describe('deposits confirmed by a second endpoint', () => {
  it('an honest pair credits as before, and the second endpoint was asked', async () => {
    const bond = await newBond(10)
    await pay(1, bond.nano, bond.comment)
    await watcher.pass()
    expect(await statusOf(bond.id)).toBe('active')
    expect(watcher.held).toBe(0)
    expect(honest.served.some((c) => c.startsWith('GET /account/'))).toBe(true)
  })

  it('an invented payment is held, never credited, and the operator sees it (`admin payments held`, as a child process)', async () => {
    const honestBond = await newBond(11)
    await pay(1, honestBond.nano, honestBond.comment)
    const bond = await newBond(12)
    await watcher.pass()
    const tpl = lastInbound()
    // The liar shows one more payment after the real history: the bond's amount and comment, from dev wallet 2.
    lie = (real) => relinked([...real, alteredPayment(tpl, { lt: real.at(-1)!.lt + 1000n, now: tpl.now - 1, value: bond.nano, comment: bond.comment, from: 2 })])
    const invented = lie(realHistory()).at(-1)!
    await watcher.pass()
    expect(await statusOf(bond.id)).toBe('pending')
    const rec = await recordOf(invented.hash().toString('hex'))
    expect(rec?.outcome).toBe('held')
    expect(rec?.mintId).toBe(bond.id)
    expect(watcher.held).toBe(1)
    expect(log.some((l) => l.startsWith('HELD: payment'))).toBe(true)
    // Nothing goes out for it: no refund, no payout.
    expect((await outgoingPayments(ts.server.ctx)).filter((p) => p.comment.includes(`:${bond.id}:`))).toEqual([])

    const out = execFileSync(process.execPath, ['--import', 'tsx', 'server/admin.ts', 'payments', 'held'], { env: { ...process.env, AXIOM_DB: await testDatabase(join(dir, `axiom-${n}.db`)) } }).toString()
    const listed = JSON.parse(out) as Array<{ txHash: string; mintId: string; amountTon: string; why: string }>
    const row = listed.find((r) => r.txHash === invented.hash().toString('hex'))
    expect(row?.mintId).toBe(String(bond.id))
    expect(row?.why).toMatch(/confirming endpoint/)

    // The liar keeps its story: the same invention is not held twice, nor anything credited.
    await watcher.pass()
    expect(watcher.held).toBe(1)
    expect((await paymentRecords(ts.server.ctx)).filter((r) => r.outcome === 'held')).toHaveLength(1)
    // The cursor never stood on the invention: once the primary tells the truth, a real payment is credited.
    const pay2 = await newBond(13)
    await pay(1, pay2.nano, pay2.comment)
    lie = null
    const live = watchWith(new TonClient4({ endpoint: honest.url, timeout: 3000 }), 0, false)
    try {
      await live.pass()
      expect(live.holding).toBeNull()
      expect(await statusOf(pay2.id)).toBe('active')
      expect(await statusOf(bond.id)).toBe('pending')
    } finally {
      await live.halt()
    }
  })

  it('without a confirming endpoint the same invention credits the bond: the guard is what stops it', async () => {
    const honestBond = await newBond(11)
    await pay(1, honestBond.nano, honestBond.comment)
    const bond = await newBond(14)
    const trusting = watchWith(undefined)
    try {
      await trusting.pass()
      const tpl = lastInbound()
      lie = (real) => relinked([...real, alteredPayment(tpl, { lt: real.at(-1)!.lt + 1000n, now: tpl.now - 1, value: bond.nano, comment: bond.comment, from: 2 })])
      await trusting.pass()
      expect(await statusOf(bond.id)).toBe('active')
    } finally {
      await trusting.halt()
    }
  })

  it('an altered amount (0.05 TON shown as the whole bond) is held: neither credited nor refunded', async () => {
    const bond = await newBond(15)
    await pay(2, 50_000_000n, bond.comment)
    lie = (real) => relinked(real.map((t, i) => (i === real.length - 1 ? alteredPayment(t, { value: bond.nano }) : t)))
    const shown = lie(realHistory()).at(-1)!
    await watcher.pass()
    expect(await statusOf(bond.id)).toBe('pending')
    expect((await recordOf(shown.hash().toString('hex')))?.outcome).toBe('held')
    expect((await outgoingPayments(ts.server.ctx)).filter((p) => p.comment.includes(`:${bond.id}:`))).toEqual([])
  })

  it("an altered comment (a user's payment shown as paying the attacker's bond) is held: neither bond is credited", async () => {
    const victims = await newBond(16)
    const attackers = await newBond(17)
    await pay(1, victims.nano, victims.comment)
    lie = (real) => relinked(real.map((t, i) => (i === real.length - 1 ? alteredPayment(t, { comment: attackers.comment, value: attackers.nano }) : t)))
    await watcher.pass()
    expect(await statusOf(victims.id)).toBe('pending')
    expect(await statusOf(attackers.id)).toBe('pending')
    expect(watcher.held).toBe(1)
  })

  it('a transaction dropped from a page breaks its links: nothing is decided, and the honest history later credits both', async () => {
    const base = await newBond(11)
    await pay(1, base.nano, base.comment)
    await watcher.pass()
    const a = await newBond(18)
    const b = await newBond(19)
    await pay(1, a.nano, a.comment)
    await pay(1, b.nano, b.comment)
    // A careless liar leaves out the first of the two payments (B still names A as its previous).
    lie = (real) => real.filter((_t, i) => i !== real.length - 2)
    await watcher.pass()
    expect(await statusOf(a.id)).toBe('pending')
    expect(await statusOf(b.id)).toBe('pending')
    expect(log.some((l) => l.includes('watcher pass failed'))).toBe(true)
    lie = null
    await watcher.pass()
    expect(await statusOf(a.id)).toBe('active')
    expect(await statusOf(b.id)).toBe('active')
  })

  it('a transaction dropped and the history relinked (a careful liar) holds what follows, nothing credited, until the truth is told', async () => {
    const base = await newBond(11)
    await pay(1, base.nano, base.comment)
    await watcher.pass()
    const a = await newBond(20)
    const b = await newBond(21)
    await pay(1, a.nano, a.comment)
    await pay(1, b.nano, b.comment)
    lie = (real) => relinked(real.filter((_t, i) => i !== real.length - 2))
    await watcher.pass()
    expect(await statusOf(a.id)).toBe('pending')
    expect(await statusOf(b.id)).toBe('pending')
    expect(log.filter((l) => !l.startsWith('HELD'))).toEqual([])
    expect(watcher.held).toBe(1)
    // The cursor stayed on the last transaction both showed: the truth, once told, credits both.
    lie = null
    await watcher.pass()
    expect(await statusOf(a.id)).toBe('active')
    expect(await statusOf(b.id)).toBe('active')
  })

  it('a confirming endpoint not there yet makes the watcher wait, not hold: the payment is credited once it is', async () => {
    await watcher.pass()
    const bond = await newBond(22)
    await pay(1, bond.nano, bond.comment)
    const paid = realHistory().at(-1)!
    // The confirming endpoint lags: its history of the treasury ends before the payment.
    const behind = await startLyingV4(honest.url, chain.treasury.wallet.address, () => realHistory().filter((t) => t.lt < paid.lt))
    const lagging = watchWith(new TonClient4({ endpoint: behind.url, timeout: 3000 }), 3600)
    try {
      await lagging.pass()
      expect(await statusOf(bond.id)).toBe('pending')
      expect(lagging.held).toBe(0)
      expect(await recordOf(paid.hash().toString('hex'))).toBeUndefined()
    } finally {
      await lagging.halt()
      await behind.close()
    }
    await watcher.pass()
    expect(await statusOf(bond.id)).toBe('active')
  })
})

describe("a live watcher's start", () => {
  it('on a treasury with no transaction yet, the first payment it ever receives is credited, not passed over', async () => {
    expect(realHistory()).toEqual([])
    const live = watchWith(new TonClient4({ endpoint: honest.url, timeout: 3000 }), 0, false)
    try {
      await live.pass()
      const bond = await newBond(23)
      await pay(1, bond.nano, bond.comment)
      await live.pass()
      expect(await statusOf(bond.id)).toBe('active')
    } finally {
      await live.halt()
    }
  })
})

describe('the local stack runs both endpoints', () => {
  it('npm start’s chain service confirms with the second v4 API over the same chain', async () => {
    const stack = await startStack()
    try {
      expect(stack.ton.v4ConfirmEndpoint).not.toBe(stack.ton.v4Endpoint)
      const confirm = new TonClient4({ endpoint: stack.ton.v4ConfirmEndpoint, timeout: 3000 })
      const last = await confirm.getLastBlock()
      const lite = await confirm.getAccountLite(last.last.seqno, stack.ton.chain.treasury.wallet.address)
      expect(lite.account.balance.coins).not.toBe('0')
    } finally {
      await stack.close()
    }
  })
})
