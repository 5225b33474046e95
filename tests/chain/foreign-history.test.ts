import { createServer, type Server } from 'node:http'
import { Address, Cell, loadTransaction, type Transaction } from '@ton/core'
import { TonClient4 } from '@ton/ton'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { outgoingPayments, paymentRecords } from '../../server/chain/payment-rows.ts'
import { createPayoutSender } from '../../server/chain/payouts.ts'
import { createChainWatcher, treasuryHistoryAfter, TREASURY_CURSOR, type ChainWatcher } from '../../server/chain/watcher.ts'
import { big, getRow } from '../../server/db/sql.ts'
import type { ChainCursor, Lease } from '../../server/main.ts'
import { localTreasuryAddress } from '../../stand-ins/chain/dev-keys.ts'
import { commentCell, LocalChain, readComment } from '../../stand-ins/chain/local-chain.ts'
import { multiRootBoc } from '../../stand-ins/chain/multi-root-boc.ts'
import { startTestServer, type Session, type TestServer } from '../server/support.ts'
import { backendWithV4BehindProxy } from './support.ts'

/**
 * The watcher knows a transaction by its logical time AND its hash. Two local chains started alike
 * give the treasury's first payment the same logical time and another hash: a v4 endpoint faked by
 * hand (raw JSON over node:http, the shapes of ton-api-v4) serves one chain's history to a watcher
 * whose cursor was taken on the other. A live watcher holds; the local one starts afresh; an answer
 * that does not link up is refused.
 */

const always: Lease = { held: () => true, onAcquired: () => undefined }
const hex = (b: Buffer) => b.toString('hex')
const idOf = (tx: Transaction): ChainCursor => ({ lt: tx.lt, txHash: hex(tx.hash()) })

/** What the fake endpoint says about the treasury: its last transaction, and the transactions it knows. */
interface View {
  last: { lt: bigint; hash: Buffer } | null
  txs: Transaction[]
  /** A page answered whatever is asked (a lying endpoint), instead of the history from `txs`. */
  page?: Transaction[]
}

const blockOf = (seqno: number) => ({ workchain: 0, seqno, shard: '-9223372036854775808', rootHash: 'A'.repeat(43) + '=', fileHash: 'B'.repeat(43) + '=' })

/** A TON HTTP API v4 of three routes (what TonClient4's getLastBlock, getAccountLite and getAccountTransactions read), by hand. */
const fakeV4 = async (view: () => View): Promise<{ url: string; close(): Promise<void> }> => {
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    const path = (req.url ?? '').split('?')[0]!
    const v = view()
    if (path === '/block/latest') {
      const b = blockOf(7)
      return send(200, { last: { ...b, workchain: -1 }, init: { rootHash: b.rootHash, fileHash: b.fileHash }, stateRootHash: b.rootHash, now: Math.floor(Date.now() / 1000) })
    }
    if (/^\/block\/\d+\/[^/]+\/lite$/.test(path)) {
      return send(200, {
        account: {
          state: { type: 'active', codeHash: 'C'.repeat(43) + '=', dataHash: 'D'.repeat(43) + '=' },
          balance: { coins: '1000000000', currencies: {} },
          last: v.last ? { lt: v.last.lt.toString(), hash: v.last.hash.toString('base64') } : null,
          storageStat: null,
        },
      })
    }
    const m = /^\/account\/[^/]+\/tx\/(\d+)\/([^/]+)$/.exec(path)
    if (m) {
      const lt = BigInt(m[1]!)
      const hash = Buffer.from(decodeURIComponent(m[2]!).replace(/-/g, '+').replace(/_/g, '/'), 'base64')
      let page = v.page
      if (!page) {
        page = []
        let at = v.txs.find((t) => t.lt === lt && t.hash().equals(hash))
        while (at && page.length < 20) {
          page.push(at)
          const prev = at
          at = v.txs.find((t) => t.lt === prev.prevTransactionLt && hex(t.hash()) === prev.prevTransactionHash.toString(16).padStart(64, '0'))
        }
        if (page.length === 0) return send(404, { error: 'Transaction not found' })
      }
      return send(200, { blocks: page.map(() => blockOf(7)), boc: multiRootBoc(page.map((t) => t.raw)).toString('base64') })
    }
    send(404, { error: 'no such route' })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const a = server.address()
  const port = typeof a === 'object' && a ? a.port : 0
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) }
}

let ts: TestServer
let user: Session
let txA: Transaction
let txB: Transaction
let bondA: bigint
let bondB: bigint
let view: View
let endpoint: { url: string; close(): Promise<void> }
const treasury = Address.parse(localTreasuryAddress())

/** The treasury's transactions on `chain`, as the chain has them (raw cells parsed anew). */
const historyOf = (chain: LocalChain) => chain.transactionsOf(chain.treasury.address).map((t) => loadTransaction(Cell.fromBoc(t.tx.raw.toBoc())[0]!.beginParse()))

beforeAll(async () => {
  ts = await startTestServer({ treasuryAddress: localTreasuryAddress() })
  ts.clock.now = Math.floor(Date.now() / 1000)
  user = await ts.login(9401)
  const bond = async (amount: number) => {
    const res = await user.call('POST', '/mint/create', { body: { amount, days: 30 } })
    expect(res.status).toBe(200)
    return { id: BigInt(res.body.mint.id), nano: BigInt(res.body.payment.amount_nano) }
  }
  const a = await bond(10)
  const b = await bond(11)
  bondA = a.id
  bondB = b.id
  // Two chains started alike; on each the treasury's first transaction is a bond's payment from dev wallet 1.
  const chainA = await LocalChain.create()
  const chainB = await LocalChain.create()
  await chainA.transfer(chainA.devWallet(1), [{ to: chainA.treasury.address, value: a.nano, body: commentCell(`axiom:mint:${a.id}`), bounce: true }])
  await chainB.transfer(chainB.devWallet(1), [{ to: chainB.treasury.address, value: b.nano, body: commentCell(`axiom:mint:${b.id}`), bounce: true }])
  txA = historyOf(chainA)[0]!
  txB = historyOf(chainB)[0]!
  view = { last: { lt: txB.lt, hash: txB.hash() }, txs: [txB] }
  endpoint = await fakeV4(() => view)
})
afterAll(async () => {
  await endpoint?.close()
  await ts?.close()
})

const client = () => new TonClient4({ endpoint: endpoint.url, timeout: 2000 })

const watcher = (cursor: string, fromStart: boolean, log: string[] = []): ChainWatcher =>
  createChainWatcher(ts.server.ctx, { client: client(), treasury, lease: always, cursor, fromStart, maxFailures: 5, log: (m, e) => void log.push(e === undefined ? m : `${m}: ${e instanceof Error ? e.message : String(e)}`) })

const statusOf = async (id: bigint) => ((await user.call('GET', '/mint/')).body.items as Array<{ id: number; status: string }>).find((m) => BigInt(m.id) === id)?.status

describe("the treasury's history is matched by logical time and hash", () => {
  it('the two chains give the payment the same logical time and another hash (the ground of the fault)', () => {
    expect(txB.lt).toBe(txA.lt)
    expect(txB.hash().equals(txA.hash())).toBe(false)
  })

  it("treasuryHistoryAfter: an account whose last transaction has the cursor's lt and another hash is another history, not one with nothing new", async () => {
    const c = client()
    const seqno = (await c.getLastBlock()).last.seqno
    const foreign = await treasuryHistoryAfter(c, treasury, idOf(txA), seqno)
    expect(Array.isArray(foreign)).toBe(false)
    expect((foreign as { why: string }).why).toContain(`${txB.lt}:${hex(txB.hash())}`)
    // The cursor's own transaction, last: nothing new. No cursor: the whole history.
    expect(await treasuryHistoryAfter(c, treasury, idOf(txB), seqno)).toEqual([])
    expect((await treasuryHistoryAfter(c, treasury, null, seqno)) as Transaction[]).toHaveLength(1)
  })

  it('a live watcher holds: nothing credited, the cursor kept, said loudly; it resumes when the endpoint shows its history again', async () => {
    await ts.server.advanceChainCursor('live', null, idOf(txA))
    const log: string[] = []
    const w = watcher('live', false, log)
    await w.pass()
    await w.pass()
    expect(w.holding).toContain(`does not hold the cursor live (${txA.lt}:${hex(txA.hash())})`)
    expect(log.filter((l) => l.startsWith('HELD:'))).toHaveLength(1)
    expect(w.decided).toEqual([])
    expect(await statusOf(bondB)).toBe('pending')
    expect(await ts.server.readChainCursor('live')).toEqual(idOf(txA))
    expect((await paymentRecords(ts.server.ctx)).filter((r) => r.txHash === hex(txB.hash()))).toEqual([])

    // The endpoint serves the cursor's history again (AXIOM_TON_API put right): the hold ends.
    const served = view
    view = { last: { lt: txA.lt, hash: txA.hash() }, txs: [txA] }
    try {
      await w.pass()
    } finally {
      view = served
    }
    expect(w.holding).toBeNull()
    expect(log.at(-1)).toContain('credited again')
  })

  it('the local watcher (fromStart) takes it for a new local chain: the cursor is dropped and the new history handled', async () => {
    await ts.server.advanceChainCursor('local', null, idOf(txA))
    const log: string[] = []
    const w = watcher('local', true, log)
    await w.pass()
    expect(w.holding).toBeNull()
    expect(w.decided.map((r) => [r.mintId, r.outcome])).toEqual([[bondB, 'activated']])
    expect(await statusOf(bondB)).toBe('active')
    expect(await ts.server.readChainCursor('local')).toEqual(idOf(txB))
    expect(log.join('\n')).toContain("not in this chain's history")
  })

  it('a page that is not the transaction asked for is refused, even by the local watcher: nothing credited, the cursor not moved', async () => {
    const served = view
    // The account names B's transaction; the page answers A's (same lt, another hash).
    view = { last: { lt: txB.lt, hash: txB.hash() }, txs: [], page: [txA] }
    try {
      const log: string[] = []
      const w = watcher('lying', true, log)
      await w.pass()
      expect(w.decided).toEqual([])
      expect(log.join('\n')).toContain(`answered the transaction ${txA.lt}:${hex(txA.hash())} for ${txB.lt}:${hex(txB.hash())}`)
      expect(await statusOf(bondA)).toBe('pending')
      expect(await ts.server.readChainCursor('lying')).toBeNull()
    } finally {
      view = served
    }
  })
})

describe('the payouts judge a message skipped only from a cursor of the same history', () => {
  it("a sale in flight is not signed anew while the watcher's cursor is another history's at the treasury's lt", async () => {
    const { ts, chain, v4, proxy } = await backendWithV4BehindProxy()
    try {
      const seller = await ts.login(9402)
      await ts.server.admin.credit(9402, '100')
      const res = await seller.call('POST', '/withdraw/create', { body: { token_amount: '10', address: chain.devWallet(1).friendly } })
      expect(res.status).toBe(200)
      const id = BigInt(res.body.id)
      const amount = big((await getRow(ts.server.ctx.db, 'SELECT amount_ton FROM withdrawals WHERE id = ?', id))!, 'amount_ton')
      const p = createPayoutSender(ts.server.ctx, {
        client: new TonClient4({ endpoint: v4.url, timeout: 2000 }),
        treasury: { version: 'v4r2', keyPair: chain.treasury.keyPair, wallet: chain.treasury.wallet },
        lease: always,
        maxFailures: 5,
        log: () => undefined,
      })
      await p.pass()
      // The sale landed (the treasury's seqno moved past it); no watcher has seen it. The cursor is
      // another history's, at the treasury's last lt with another hash (a database restored from
      // another deployment, a local chain started anew).
      const last = chain.transactionsOf(chain.treasury.address).at(-1)!.tx
      await ts.server.advanceChainCursor(TREASURY_CURSOR, null, { lt: last.lt, txHash: 'ab'.repeat(32) })
      await p.pass()
      await p.pass()
      const paid = chain
        .transactionsOf(chain.devWallet(1).address)
        .map((t) => t.tx.inMessage)
        .filter((m) => m?.info.type === 'internal' && readComment(m.body) === `axiom:sale:${id}`)
      expect(paid).toHaveLength(1)
      expect(paid[0]!.info.type === 'internal' && paid[0]!.info.value.coins).toBe(amount)
      expect((await outgoingPayments(ts.server.ctx)).find((r) => r.withdrawalId === id)).toMatchObject({ state: 'sending', failures: 0 })
    } finally {
      await proxy.close()
      await v4.close()
      await ts.close()
    }
  })
})
