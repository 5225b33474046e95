import { TonClient4 } from '@ton/ton'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { outgoingPayments, type OutgoingPayment } from '../../server/chain/payment-rows.ts'
import { createPayoutSender, type PayoutSender } from '../../server/chain/payouts.ts'
import { NO_PAYOUT_LIMITS } from '../../server/config/config.ts'
import { saleComment, type Lease } from '../../server/main.ts'
import { big, getRow } from '../../server/db/sql.ts'
import { readComment } from '../../stand-ins/chain/local-chain.ts'
import { localTreasuryAddress } from '../../stand-ins/chain/dev-keys.ts'
import { attachLocalTon, type LocalTon } from '../../stand-ins/local-ton.ts'
import { proveWallet } from '../support/bind-wallet.ts'
import { call, signInitData, startTestServer, type Session, type TestServer } from '../server/support.ts'

/**
 * The cooling period on the local sandbox chain, through the real v4 API, TonClient4 and the payouts'
 * own pass: a sale to an address its user has not proven leaves nothing on the chain before its
 * release time and is paid once after it; one its user cancels in the wait is never paid; one to the
 * proven wallet is paid at once. The chain's own transactions are what is read, not the rows.
 */
const DELAY = 3_600
let ts: TestServer
let ton: LocalTon
let client: TonClient4

beforeAll(async () => {
  ts = await startTestServer({ treasuryAddress: localTreasuryAddress(), newAddressDelayS: DELAY })
  // The real time, so that the sandbox's clock and the server's agree until the test moves the server's.
  ts.clock.now = Math.floor(Date.now() / 1000)
  ton = await attachLocalTon(ts.server, { port: 0, payoutIntervalMs: 0, heartbeatMs: 200, autoApprove: 'off' })
  client = new TonClient4({ endpoint: ton.v4Endpoint, timeout: 5000 })
})
afterAll(async () => {
  await ton?.close()
  await ts?.close()
})

const ctx = () => ts.server.ctx
const always: Lease = { held: () => true, onAcquired: () => undefined }
const sender = (): PayoutSender =>
  createPayoutSender(ctx(), {
    client,
    treasury: { version: 'v4r2', keyPair: ton.chain.treasury.keyPair, wallet: ton.chain.treasury.wallet },
    lease: always,
    maxFailures: 5,
    limits: NO_PAYOUT_LIMITS,
    log: () => undefined,
  })

let nextUser = 7_700
const seller = async (): Promise<Session> => {
  const id = nextUser++
  const s = await ts.login(id)
  await ts.server.admin.credit(id, '5000')
  return s
}
const createSale = async (s: Session, wallet: number) => {
  const res = await (await ts.login(s.telegramId)).call('POST', '/withdraw/create', { body: { token_amount: '20', address: ton.chain.devWallet(wallet).friendly } })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  const id = BigInt(res.body.id)
  return { id, amount: big((await getRow(ctx().db, 'SELECT amount_ton FROM withdrawals WHERE id = ?', id))!, 'amount_ton'), releaseAt: res.body.release_at as number | undefined }
}
const outgoingOf = async (id: bigint): Promise<OutgoingPayment | undefined> => (await outgoingPayments(ctx())).find((r) => r.withdrawalId === id)

/** What the chain carried to dev wallet `index` with sale `id`'s comment. */
const paidOnChain = (index: number, id: bigint): bigint[] =>
  ton.chain
    .transactionsOf(ton.chain.devWallet(index).address)
    .map((t) => t.tx.inMessage)
    .filter((m) => m?.info.type === 'internal' && readComment(m.body) === saleComment(id))
    .map((m) => (m!.info.type === 'internal' ? m!.info.value.coins : 0n))

/** Payout passes, each followed by the watcher's (which confirms what landed). */
const passes = async (p: PayoutSender, n = 3) => {
  for (let i = 0; i < n; i++) {
    await p.pass()
    await ton.service.watcher.pass()
  }
}
const untilPaid = async (p: PayoutSender, id: bigint, n = 10) => {
  for (let i = 0; i < n && (await outgoingOf(id))?.state !== 'paid'; i++) await passes(p, 1)
  return (await outgoingOf(id))?.state
}

const conserved = async () => {
  const l = await ts.server.admin.ledger()
  expect(l.balances + l.locked + l.withdrawals + l.linkFunds + l.penalties).toBe(l.credited)
  expect(await ts.server.admin.verifyTotals()).toEqual([])
}

describe('the cooling period on the chain', () => {
  it('a sale to a new address: nothing sent before its release time, paid once after; a cancelled one never', async () => {
    const p = sender()
    const paid = await createSale(await seller(), 1)
    const owner = await seller()
    const cancelled = await createSale(owner, 2)
    expect(paid.releaseAt).toBe(ts.clock.now + DELAY)

    await passes(p)
    expect(await outgoingOf(paid.id)).toBeUndefined()
    expect(paidOnChain(1, paid.id)).toEqual([])

    // Its owner cancels the second while it waits (as the bot's Cancel button asks the backend).
    const res = await call(ts.url, 'POST', '/telegram/sale-cancel', { body: { init_data: signInitData({ id: owner.telegramId }, ts.clock.now), sale_id: Number(cancelled.id) } })
    expect(res.body).toMatchObject({ outcome: 'cancelled' })

    ts.clock.advance(DELAY)
    expect(await untilPaid(p, paid.id)).toBe('paid')
    expect(paidOnChain(1, paid.id)).toEqual([paid.amount])
    await passes(p)
    expect(paidOnChain(1, paid.id)).toEqual([paid.amount])
    expect(await outgoingOf(cancelled.id)).toBeUndefined()
    expect(paidOnChain(2, cancelled.id)).toEqual([])
    await conserved()
  })

  it("a sale to the user's proven wallet is paid at the first passes", async () => {
    const s = await seller()
    await proveWallet(s, ton.chain.devWallet(0), ts.clock.now)
    ts.clock.advance(DELAY)
    const sale = await createSale(s, 0)
    expect(sale.releaseAt).toBeUndefined()
    expect(await untilPaid(sender(), sale.id)).toBe('paid')
    expect(paidOnChain(0, sale.id)).toEqual([sale.amount])
  })
})
