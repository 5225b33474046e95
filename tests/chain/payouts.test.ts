import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { WithdrawHistory } from '../../core/domain/entities/withdraw.ts'
import { localTreasuryAddress } from '../../stand-ins/chain/dev-keys.ts'
import { readComment, type ChainTx, type LocalChain } from '../../stand-ins/chain/local-chain.ts'
import { attachLocalTon } from '../../stand-ins/local-ton.ts'
import { createPayoutProcessor, saleComment, type PayoutProcessor } from '../../stand-ins/chain/payouts.ts'
import { big, getRow, run, str } from '../../server/db/sql.ts'
import { decode, startTestServer, type Session } from '../server/support.ts'
import { eventually, startStack, type Stack } from './support.ts'

let s: Stack
let user: Session
const restarted: PayoutProcessor[] = []

beforeAll(async () => {
  s = await startStack()
  user = await s.ts.login(6001)
  // Welcome tokens are not for sale: the sales sell tokens of the user's own.
  await s.ts.server.admin.credit(6001, '500')
})
afterEach(() => {
  for (const p of restarted.splice(0)) p.stop()
})
afterAll(async () => s?.close())

const db = () => s.ts.server.ctx.db

/** Creates a sale of `tokens` AXIOM to dev wallet `index`; answers its id and the nanotons it pays. */
const createSale = async (index: number, tokens = '10') => {
  const res = await user.call('POST', '/withdraw/create', { body: { token_amount: tokens, address: s.ton.chain.devWallet(index).friendly } })
  expect(res.status).toBe(200)
  const id = BigInt(res.body.id)
  return { id, amount: big((await getRow(db(), 'SELECT amount_ton FROM withdrawals WHERE id = ?', id))!, 'amount_ton') }
}

const rowStatus = async (id: bigint) => str((await getRow(db(), 'SELECT status FROM withdrawals WHERE id = ?', id))!, 'status')

/** Every payment of sale `id` that reached dev wallet `index`: the value of each message with its comment. */
const salePaymentsTo = (chain: LocalChain, index: number, id: bigint): bigint[] =>
  chain
    .transactionsOf(chain.devWallet(index).address)
    .map((t) => t.tx.inMessage)
    .filter((m) => m?.info.type === 'internal' && readComment(m.body) === saleComment(id))
    .map((m) => (m!.info.type === 'internal' ? m!.info.value.coins : 0n))

const sendsSale = (txs: ReadonlyArray<ChainTx>, id: bigint) =>
  txs.some((t) => t.tx.outMessages.values().some((m) => readComment(m.body) === saleComment(id)))

/** A payout runner started afresh on the same database and chain, as after a restart of the backend. */
const restart = () => {
  const p = createPayoutProcessor(s.ton.chain, s.ts.server, { intervalMs: 0 })
  restarted.push(p)
  return p
}

describe('sale payouts are paid exactly once', () => {
  it('an error thrown after the payment left the treasury does not pay it again', async () => {
    const { id, amount } = await createSale(1)
    let thrown = 0
    // A fault between the send and the status update: the chain has run the payment, then the send rejects.
    const off = s.ton.chain.onTransactions((txs) => {
      if (sendsSale(txs, id) && thrown++ === 0) throw new Error('crash after the send')
    })
    try {
      const first = await s.ton.payouts.processOnce()
      expect(thrown).toBe(1)
      expect(first).toEqual([expect.objectContaining({ withdrawalId: id, outcome: 'completed' })])
      expect(await s.ton.payouts.processOnce()).toEqual([])
    } finally {
      off()
    }
    expect(salePaymentsTo(s.ton.chain, 1, id)).toEqual([amount])
    expect(await rowStatus(id)).toBe('completed')
  })

  it('a runner that dies between the send and the update leaves the row sending; after a restart it is completed, not paid again', async () => {
    const { id, amount } = await createSale(2)
    let release!: () => void
    const stuck = new Promise<void>((r) => (release = r))
    // The first runner never gets past its send: as if the process died right after it.
    const off = s.ton.chain.onTransactions(async (txs) => {
      if (sendsSale(txs, id)) await stuck
    })
    const dead = s.ton.payouts.processOnce()
    try {
      await eventually(() => salePaymentsTo(s.ton.chain, 2, id).length === 1)
      expect(await rowStatus(id)).toBe('sending')
      // The API still shows the sale as not paid, in a form the client's schema accepts.
      const history = decode(WithdrawHistory, (await user.call('GET', '/withdraw/history')).body)
      expect(history.items.find((w) => BigInt(w.id) === id)?.status).toBe('pending')

      const next = restart()
      const recovered = await next.recovered
      expect(recovered).toEqual([expect.objectContaining({ withdrawalId: id, outcome: 'completed', recovered: true })])
      expect(await rowStatus(id)).toBe('completed')
      expect(await next.processOnce()).toEqual([])
    } finally {
      off()
      release()
    }
    await dead
    expect(salePaymentsTo(s.ton.chain, 2, id)).toEqual([amount])
    expect(await rowStatus(id)).toBe('completed')
    expect(await s.ton.payouts.processOnce()).toEqual([])
  })

  it('a row left sending with nothing on the chain (a crash before the send) is sent once at start-up', async () => {
    const { id, amount } = await createSale(1, '7')
    // What a crash leaves after `sending` was committed and before the transfer was signed.
    await run(db(), `UPDATE withdrawals SET status = 'sending' WHERE id = ?`, id)
    const next = restart()
    expect(await next.recovered).toEqual([expect.objectContaining({ withdrawalId: id, outcome: 'completed', amountNano: amount })])
    expect((await next.recovered)[0]?.recovered).toBeUndefined()
    expect(await rowStatus(id)).toBe('completed')
    expect(await next.processOnce()).toEqual([])
    expect(await s.ton.payouts.processOnce()).toEqual([])
    expect(salePaymentsTo(s.ton.chain, 1, id)).toEqual([amount])
  })

  it('the recovery looks for the comment of its own sale only', async () => {
    const a = await createSale(1, '3')
    await s.ton.payouts.processOnce()
    expect(salePaymentsTo(s.ton.chain, 1, a.id)).toEqual([a.amount])
    // b, to the same wallet, is left sending before its transfer: a's payment there is not b's.
    const b = await createSale(1, '4')
    await run(db(), `UPDATE withdrawals SET status = 'sending' WHERE id = ?`, b.id)
    const next = restart()
    const [r] = await next.recovered
    expect(r).toMatchObject({ withdrawalId: b.id, outcome: 'completed' })
    expect(r?.recovered).toBeUndefined()
    expect(salePaymentsTo(s.ton.chain, 1, b.id)).toEqual([b.amount])
    expect(salePaymentsTo(s.ton.chain, 1, a.id)).toEqual([a.amount])
  })
})

describe('start-up of the local TON stack', () => {
  const dir = mkdtempSync(join(tmpdir(), 'axiom-payouts-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('attachLocalTon settles a sale left sending in the file database', async () => {
    const dbPath = join(dir, 'axiom.db')
    const first = await startTestServer({ dbPath, treasuryAddress: localTreasuryAddress() })
    first.clock.now = Math.floor(Date.now() / 1000)
    const seller = await first.login(6101)
    await first.server.admin.credit(6101, '5')
    const created = await seller.call('POST', '/withdraw/create', { body: { token_amount: '5', address: s.ton.chain.devWallet(2).friendly } })
    expect(created.status).toBe(200)
    const id = BigInt(created.body.id)
    await run(first.server.ctx.db, `UPDATE withdrawals SET status = 'sending' WHERE id = ?`, id)
    const amount = big((await getRow(first.server.ctx.db, 'SELECT amount_ton FROM withdrawals WHERE id = ?', id))!, 'amount_ton')
    await first.close()

    const second = await startTestServer({ dbPath, treasuryAddress: localTreasuryAddress() })
    second.clock.now = Math.floor(Date.now() / 1000)
    const ton = await attachLocalTon(second.server, { port: 0, payoutIntervalMs: 0, autoApprove: 'off' })
    try {
      expect(await ton.payouts.recovered).toEqual([expect.objectContaining({ withdrawalId: id, outcome: 'completed' })])
      expect(salePaymentsTo(ton.chain, 2, id)).toEqual([amount])
      expect(str((await getRow(second.server.ctx.db, 'SELECT status FROM withdrawals WHERE id = ?', id))!, 'status')).toBe('completed')
      expect(await ton.payouts.processOnce()).toEqual([])
    } finally {
      await ton.close()
      await second.close()
    }
  })
})
