import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Address, beginCell, loadTransaction, storeTransaction, type Transaction } from '@ton/core'
import { multiRootBoc } from '../../stand-ins/chain/multi-root-boc.ts'

/**
 * A TON HTTP API v4 endpoint that lies about one account: in front of an honest v4 API, it answers
 * the account's last transaction (`/block/N/<account>/lite`) and its history pages
 * (`/account/<account>/tx/<lt>/<hash>`) from a history the test makes up, and passes every other
 * call (the latest block, get-methods, sends, other accounts) to the honest one. Written from the
 * routes and JSON shapes of ton-api-v4 that TonClient4 reads, not with TonClient4.
 *
 * A careful liar keeps its history linked (each transaction names the one before it by logical time
 * and hash), so that a page-by-page check finds nothing wrong: `relinked` does that. A careless one
 * drops or swaps transactions and leaves the links broken.
 */
export interface LyingV4 {
  readonly url: string
  /** Every call it answered or passed on, as `METHOD path`, in order. */
  readonly seen: ReadonlyArray<string>
  close(): Promise<void>
}

/** The history the liar shows for `account`, oldest first; null: the honest endpoint's answers pass unchanged. */
export type ShownHistory = () => ReadonlyArray<Transaction> | null

const PAGE = 20
const hex = (b: Buffer) => b.toString('hex')
const fromUrlSafe = (s: string) => s.replace(/-/g, '+').replace(/_/g, '/')

/** `tx` with some of its fields changed, serialised anew (so its hash is new). */
export const forged = (tx: Transaction, changes: Partial<Transaction>): Transaction =>
  loadTransaction(beginCell().store(storeTransaction({ ...tx, ...changes })).endCell().beginParse())

/** The history with each transaction naming the one shown before it as its previous (forged anew where it did not). */
export const relinked = (txs: ReadonlyArray<Transaction>): Transaction[] => {
  const out: Transaction[] = []
  for (const tx of txs) {
    const prev = out[out.length - 1]
    if (!prev) {
      out.push(tx)
      continue
    }
    const prevHash = BigInt(`0x${hex(prev.hash())}`)
    out.push(tx.prevTransactionLt === prev.lt && tx.prevTransactionHash === prevHash ? tx : forged(tx, { prevTransactionLt: prev.lt, prevTransactionHash: prevHash }))
  }
  return out
}

export const startLyingV4 = async (upstream: string, account: Address, shown: ShownHistory): Promise<LyingV4> => {
  const seen: string[] = []
  const isAccount = (text: string) => {
    try {
      return Address.parse(decodeURIComponent(text)).equals(account)
    } catch {
      return false
    }
  }
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!
    seen.push(`${req.method} ${path}`)
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    const history = shown()
    const pass = async () => {
      const chunks: Buffer[] = []
      for await (const c of req) chunks.push(c as Buffer)
      const up = await fetch(`${upstream}${req.url ?? '/'}`, {
        method: req.method ?? 'GET',
        headers: { 'content-type': String(req.headers['content-type'] ?? 'application/json') },
        ...(req.method === 'POST' ? { body: Buffer.concat(chunks) } : {}),
      })
      res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' })
      res.end(Buffer.from(await up.arrayBuffer()))
    }
    const lite = /^\/block\/\d+\/([^/]+)\/lite$/.exec(path)
    if (history && lite && isAccount(lite[1]!)) {
      // The honest answer (state, balance) with the made-up history's last transaction.
      void (async () => {
        const up = (await (await fetch(`${upstream}${path}`)).json()) as { account: Record<string, unknown> }
        const last = history[history.length - 1]
        send(200, { account: { ...up.account, last: last ? { lt: last.lt.toString(), hash: last.hash().toString('base64') } : null } })
      })().catch(() => res.destroy())
      return
    }
    const page = /^\/account\/([^/]+)\/tx\/(\d+)\/([^/]+)$/.exec(path)
    if (history && page && isAccount(page[1]!)) {
      const lt = BigInt(page[2]!)
      const hash = Buffer.from(fromUrlSafe(decodeURIComponent(page[3]!)), 'base64')
      // From the transaction asked for, back through the made-up history as it is listed (newest first).
      const at = history.findIndex((t) => t.lt === lt && t.hash().equals(hash))
      if (at < 0) return send(404, { error: 'Transaction not found' })
      const txs = history.slice(Math.max(0, at - PAGE + 1), at + 1).reverse()
      const block = { workchain: 0, seqno: 1, shard: '-9223372036854775808', rootHash: 'A'.repeat(43) + '=', fileHash: 'B'.repeat(43) + '=' }
      return send(200, { blocks: txs.map(() => block), boc: multiRootBoc(txs.map((t) => t.raw)).toString('base64') })
    }
    pass().catch(() => res.destroy())
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}
