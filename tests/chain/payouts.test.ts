import { TonClient4 } from '@ton/ton'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { outgoingPayments, type OutgoingPayment } from '../../server/chain/payment-rows.ts'
import { createPayoutSender, type PayoutSender } from '../../server/chain/payouts.ts'
import { runAdminCommand, saleComment, type Lease } from '../../server/main.ts'
import { big, getRow, str } from '../../server/db/sql.ts'
import { readComment, type LocalChain } from '../../stand-ins/chain/local-chain.ts'
import { startFaultProxy, type Fault, type FaultProxy } from '../support/fault-proxy.ts'
import type { Session } from '../server/support.ts'
import { eventually, startStack, type Stack } from './support.ts'

/**
 * The payouts (server/chain/payouts.ts) through TonClient4, and a proxy in front of the local v4 API
 * that breaks what a real endpoint breaks. Whatever happens, each sale is paid once.
 */
let s: Stack
let user: Session
let proxy: FaultProxy

beforeAll(async () => {
  // No stream: a treasury message it reported landing would wake the backend's own payouts, which
  // would send, past this file's faulty proxy, what its senders are made to lose. The watcher still polls.
  s = await startStack({ stream: false })
  proxy = await startFaultProxy(s.ton.v4Endpoint)
  user = await s.ts.login(6001)
  await s.ts.server.admin.credit(6001, '5000')
})
afterAll(async () => {
  await proxy?.close()
  await s?.close()
})

const ctx = () => s.ts.server.ctx
const always: Lease = { held: () => true, onAcquired: () => undefined }
const quiet = () => undefined

/** A payout sender of its own (as another process, or the same after a restart), through the proxy. */
const sender = (o: { maxFailures?: number; validForS?: number; timeoutMs?: number } = {}): PayoutSender =>
  createPayoutSender(ctx(), {
    client: new TonClient4({ endpoint: proxy.url, timeout: o.timeoutMs ?? 2000 }),
    treasury: { version: 'v4r2', keyPair: s.ton.chain.treasury.keyPair, wallet: s.ton.chain.treasury.wallet },
    lease: always,
    maxFailures: o.maxFailures ?? 5,
    ...(o.validForS !== undefined ? { validForS: o.validForS } : {}),
    log: quiet,
  })

const createSale = async (index: number, tokens = '10') => {
  const res = await user.call('POST', '/withdraw/create', { body: { token_amount: tokens, address: s.ton.chain.devWallet(index).friendly } })
  expect(res.status).toBe(200)
  const id = BigInt(res.body.id)
  return { id, amount: big((await getRow(ctx().db, 'SELECT amount_ton FROM withdrawals WHERE id = ?', id))!, 'amount_ton') }
}

const rowStatus = async (id: bigint) => str((await getRow(ctx().db, 'SELECT status FROM withdrawals WHERE id = ?', id))!, 'status')
const outgoingOf = async (id: bigint): Promise<OutgoingPayment> => (await outgoingPayments(ctx())).find((r) => r.withdrawalId === id)!

const salePaymentsTo = (chain: LocalChain, index: number, id: bigint): bigint[] =>
  chain
    .transactionsOf(chain.devWallet(index).address)
    .map((t) => t.tx.inMessage)
    .filter((m) => m?.info.type === 'internal' && readComment(m.body) === saleComment(id))
    .map((m) => (m!.info.type === 'internal' ? m!.info.value.coins : 0n))

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Passes of `p` until sale `id` is paid, or `ms` is over: a message sent lands in the chain's next
 * block (400 ms), and the watcher confirms it once it reads that block from the history.
 */
const untilPaid = async (p: PayoutSender, id: bigint, ms = 10_000) => {
  const until = Date.now() + ms
  while ((await outgoingOf(id))?.state !== 'paid' && Date.now() < until) {
    await p.pass()
    await s.ton.service.watcher.pass()
    await sleep(50)
  }
  return outgoingOf(id)
}

describe('payouts through the v4 API are paid exactly once', () => {
  it('records seqno, valid_until and the message hash before sending; paid when the treasury transaction carrying it is seen', async () => {
    const { id, amount } = await createSale(1)
    const done = await s.ton.payouts.processOnce()
    expect(done).toEqual([expect.objectContaining({ withdrawalId: id, amountNano: amount })])
    // Sent; paid once the watcher reads the block that carries it.
    await eventually(async () => (await outgoingOf(id)).state === 'paid')
    const row = await outgoingOf(id)
    expect(row).toMatchObject({ state: 'paid', kind: 'sale', comment: saleComment(id) })
    expect(row.seqno).toBeGreaterThanOrEqual(0)
    expect(row.validUntil).toBeGreaterThan(Math.floor(Date.now() / 1000))
    expect(row.msgHash).toMatch(/^[0-9a-f]{64}$/)
    const tx = s.ton.chain.transactionsOf(s.ton.treasuryAddress).find((t) => t.tx.hash().toString('hex') === row.paidTxHash)
    expect(tx?.tx.inMessage?.info.type).toBe('external-in')
    expect(await rowStatus(id)).toBe('completed')
    expect(salePaymentsTo(s.ton.chain, 1, id)).toEqual([amount])
    expect(await s.ton.payouts.processOnce()).toEqual([])
    // The seller is told once, in the bot's chat, that the sale was paid.
    const told = await s.ts.server.ctx.db.all(
      `SELECT o.payload FROM outbox o JOIN withdrawals w ON w.user_id = o.user_id WHERE w.id = ? AND o.kind = 'sale_paid'`,
      id,
    )
    expect(told).toHaveLength(1)
  })

  it('a kill between signing and sending: the restarted sender sends the recorded message, once', async () => {
    const { id, amount } = await createSale(2)
    // The message is recorded, then the process dies before the send reaches the chain.
    proxy.fail('/send', { kind: 'drop' })
    try {
      await sender().pass()
    } finally {
      proxy.clear()
    }
    const signed = await outgoingOf(id)
    expect(signed.state).toBe('sending')
    expect(salePaymentsTo(s.ton.chain, 2, id)).toEqual([])
    const restarted = sender()
    expect((await untilPaid(restarted, id)).state).toBe('paid')
    // The same message: same seqno and hash.
    expect(await outgoingOf(id)).toMatchObject({ seqno: signed.seqno, msgHash: signed.msgHash })
    expect(salePaymentsTo(s.ton.chain, 2, id)).toEqual([amount])
  })

  const faults: Array<[string, Fault]> = [
    ['answers 5xx', { kind: 'status', status: 503, msg: 'unavailable' }],
    ['times out', { kind: 'delay', ms: 4000 }],
    ['takes the message but loses the answer', { kind: 'lose-answer' }],
  ]
  for (const [what, fault] of faults) {
    it(`a v4 endpoint that ${what} on /send: resent until it lands, paid once`, async () => {
      const { id, amount } = await createSale(1, '3')
      const p = sender({ timeoutMs: 1000 })
      proxy.fail('/send', fault)
      try {
        await p.pass()
        await p.pass()
      } finally {
        proxy.clear()
      }
      expect((await untilPaid(p, id)).state).toBe('paid')
      await p.pass()
      expect(salePaymentsTo(s.ton.chain, 1, id)).toEqual([amount])
    })
  }

  it('a message held up past its valid_until is refused by the wallet; signed anew only then, paid once', async () => {
    const { id, amount } = await createSale(2, '4')
    const p = sender({ validForS: 1 })
    proxy.fail('/send', { kind: 'late', ms: 2500 })
    try {
      await p.pass()
    } finally {
      proxy.clear()
    }
    const first = await outgoingOf(id)
    // Before valid_until nothing is signed anew: the same message is resent.
    await sleep(2100)
    await p.pass()
    const second = await outgoingOf(id)
    expect(second.failures).toBeGreaterThanOrEqual(1)
    await sleep(1000)
    expect((await untilPaid(p, id)).state).toBe('paid')
    expect((await outgoingOf(id)).msgHash).not.toBe(first.msgHash)
    expect(salePaymentsTo(s.ton.chain, 2, id)).toEqual([amount])
  })

  it('two instances both believing they hold the lease: each sale is in one message, paid once', async () => {
    const sales = [await createSale(1, '2'), await createSale(2, '2'), await createSale(1, '2')]
    const a = sender()
    const b = sender()
    const allPaid = async () => (await Promise.all(sales.map((x) => outgoingOf(x.id)))).every((r) => r.state === 'paid')
    for (let i = 0; i < 8 || !(await allPaid()); i++) {
      if (i > 200) break
      await Promise.all([a.pass(), b.pass()])
      await s.ton.service.watcher.pass()
      await sleep(50)
    }
    for (const sale of sales) {
      expect((await outgoingOf(sale.id)).state).toBe('paid')
      expect(salePaymentsTo(s.ton.chain, sale.id === sales[1]!.id ? 2 : 1, sale.id)).toEqual([sale.amount])
    }
  })

  it('several due sales go out together: up to 4 messages in one v4r2 transfer', async () => {
    const sales: Array<{ id: bigint; amount: bigint }> = []
    // Distinct amounts: an identical create within 5 s answers the first sale.
    for (let i = 0; i < 6; i++) sales.push(await createSale(1 + (i % 2), `1.${i + 1}`))
    await s.ton.payouts.processOnce()
    const rows = await Promise.all(sales.map((x) => outgoingOf(x.id)))
    expect(new Set(rows.slice(0, 4).map((r) => r.msgHash)).size).toBe(1)
    expect(rows[4]!.msgHash).not.toBe(rows[0]!.msgHash)
    // The second message goes once the first has landed (one message in flight at a time).
    await eventually(async () => (await outgoingOf(sales[0]!.id)).state === 'paid')
    await s.ton.payouts.processOnce()
    await eventually(async () => (await Promise.all(sales.map((x) => outgoingOf(x.id)))).every((r) => r.state === 'paid'))
  })

  it('after N failures a payment is failed, for the operator to retry or settle with npm run admin', async () => {
    const { id, amount } = await createSale(2, '5')
    const p = sender({ maxFailures: 2, validForS: 1 })
    proxy.fail('/send', { kind: 'drop' })
    try {
      for (let i = 0; i < 6 && (await outgoingOf(id))?.state !== 'failed'; i++) {
        await p.pass()
        await sleep(1100)
      }
    } finally {
      proxy.clear()
    }
    const failed = await outgoingOf(id)
    expect(failed).toMatchObject({ state: 'failed', failures: 2 })
    expect(failed.lastError).toMatch(/expired/)
    // Nothing more is sent for a failed payment.
    await p.pass()
    expect(salePaymentsTo(s.ton.chain, 2, id)).toEqual([])
    // The admin commands work on the database file; here on the same in-memory database, through its context.
    const { retryOutgoing } = await import('../../server/chain/payment-rows.ts')
    expect(await retryOutgoing(ctx(), failed.id)).toBe(true)
    // Signed anew by a sender with the usual validity: one second (the failing sender's) may pass
    // before a loaded machine's chain takes the message, and it would expire again.
    expect((await untilPaid(sender(), id)).state).toBe('paid')
    expect(salePaymentsTo(s.ton.chain, 2, id)).toEqual([amount])
  })
})

describe('a payment no message can carry', () => {
  it('an unparsable address is failed at once, for the operator, and does not hold up the others', async () => {
    const now = Math.floor(Date.now() / 1000)
    await ctx().db.run(
      `INSERT INTO outgoing_payments (kind, ref, to_address, amount_nano, comment, state, failures, created_at, updated_at)
       VALUES ('refund', 'refund:bad-address', 'not-an-address', 20000000, 'axiom:refund:1:refused', 'queued', 0, ?, ?)`,
      now,
      now,
    )
    const { id, amount } = await createSale(1, '6.5')
    expect((await untilPaid(sender(), id)).state).toBe('paid')
    expect(salePaymentsTo(s.ton.chain, 1, id)).toEqual([amount])
    const bad = (await outgoingPayments(ctx())).find((r) => r.to === 'not-an-address')!
    expect(bad).toMatchObject({ state: 'failed', lastError: 'unparsable address not-an-address' })
  })
})

describe('npm run admin: payouts, payout retry, payout settle', () => {
  it('lists failed payments, and settles one by hand', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const { openEngine } = await import('../../server/db/open-engine.ts')
    const dir = mkdtempSync(join(tmpdir(), 'axiom-payout-admin-'))
    try {
      const dbPath = join(dir, 'a.db')
      const engine = await openEngine(dbPath)
      await engine.run(
        `INSERT INTO outgoing_payments (kind, ref, to_address, amount_nano, comment, state, failures, last_error, created_at, updated_at)
         VALUES ('refund', 'refund:x', '0:${'1'.repeat(64)}', 5, 'axiom:refund:1:expired', 'failed', 5, 'expired', 1, 1)`,
      )
      await engine.close()
      const listed = JSON.parse(await runAdminCommand(dbPath, ['payouts', 'failed']))
      expect(listed).toEqual([expect.objectContaining({ id: '1', state: 'failed', failures: 5, kind: 'refund' })])
      expect(await runAdminCommand(dbPath, ['payout', 'settle', '1', 'refunded', 'from', 'the', 'office', 'wallet'])).toBe('payment #1 settled: refunded from the office wallet')
      expect(await runAdminCommand(dbPath, ['payout', 'retry', '1'])).toBe('payment #1 is not failed')
      expect(JSON.parse(await runAdminCommand(dbPath, ['payouts', 'failed']))).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
