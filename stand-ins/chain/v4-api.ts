import { Address, Cell, parseTuple, serializeTuple, type TupleItem } from '@ton/core'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { blockHashOf, type LocalChain } from './local-chain.ts'
import { multiRootBoc } from './multi-root-boc.ts'

/** How many transactions one history page holds (as the public v4 API). */
export const TX_PAGE = 20

/**
 * The subset of the TON v4 HTTP API (ton-api-v4, what @ton/ton's TonClient4 reads) served over the
 * local chain. Shapes match TonClient4's zod codecs exactly. Account reads answer the chain's current
 * state whatever block seqno is asked (the local chain keeps no history of states); a get method says
 * which block it ran at (the latest), so a client can tell when the chain moved between two reads.
 */

const b64OfBigint = (v: bigint) => Buffer.from(v.toString(16).padStart(64, '0'), 'hex').toString('base64')
const fromUrlSafe = (s: string) => s.replace(/-/g, '+').replace(/_/g, '/')

const parseAddress = (text: string): Address | null => {
  try {
    return Address.parse(decodeURIComponent(text))
  } catch {
    return null
  }
}

const blockRef = (chain: LocalChain) => {
  const b = chain.lastBlock
  return { workchain: b.workchain, seqno: b.seqno, shard: b.shard, rootHash: b.rootHash, fileHash: b.fileHash }
}

const accountJson = async (chain: LocalChain, address: Address, lite: boolean) =>
  chain.exclusive(async () => {
    const c = await chain.blockchain.getContract(address)
    const st = c.accountState
    let state: Record<string, unknown>
    if (!st || st.type === 'uninit') state = { type: 'uninit' }
    else if (st.type === 'frozen') state = { type: 'frozen', stateHash: b64OfBigint(st.stateHash) }
    else {
      const code = st.state.code ?? null
      const data = st.state.data ?? null
      state = lite
        ? {
            type: 'active',
            codeHash: code ? code.hash().toString('base64') : '',
            dataHash: data ? data.hash().toString('base64') : '',
          }
        : {
            type: 'active',
            code: code ? code.toBoc().toString('base64') : null,
            data: data ? data.toBoc().toString('base64') : null,
          }
    }
    const stats = c.account.account?.storageStats
    const lt = c.lastTransactionLt
    return {
      state,
      balance: { coins: c.balance.toString(), currencies: {} as Record<string, string> },
      last: lt > 0n ? { lt: lt.toString(), hash: b64OfBigint(c.lastTransactionHash) } : null,
      storageStat: stats
        ? {
            lastPaid: stats.lastPaid,
            duePayment: stats.duePayment === null || stats.duePayment === undefined ? null : stats.duePayment.toString(),
            used: { bits: Number(stats.used.bits), cells: Number(stats.used.cells), publicCells: 0 },
          }
        : null,
    }
  })

const badAddress = (reply: FastifyReply) => reply.code(400).send({ error: 'Invalid address' })

export const registerV4Routes = (app: FastifyInstance, chain: LocalChain): void => {
  app.get('/block/latest', async () => {
    const b = chain.lastBlock
    return {
      last: blockRef(chain),
      init: { fileHash: b.fileHash, rootHash: b.rootHash },
      stateRootHash: b.rootHash,
      // The chain's clock (a test may move the sandbox's): what payouts judge valid_until by.
      now: chain.blockchain.now ?? Math.floor(Date.now() / 1000),
    }
  })

  app.get<{ Params: { seqno: string } }>('/block/:seqno', async (req) => {
    const seqno = Number(req.params.seqno)
    if (!Number.isInteger(seqno) || seqno < 1 || seqno > chain.lastBlock.seqno) return { exist: false }
    const b = chain.lastBlock
    const txs = chain.transactionsIn(seqno)
    return {
      exist: true,
      block: {
        shards: [
          {
            workchain: 0,
            seqno,
            shard: b.shard,
            rootHash: blockHashOf(seqno, 'root'),
            fileHash: blockHashOf(seqno, 'file'),
            transactions: txs.map((t) => ({
              account: t.address.toString({ urlSafe: true }),
              hash: t.tx.hash().toString('base64'),
              lt: t.tx.lt.toString(),
            })),
          },
        ],
      },
    }
  })

  app.get<{ Params: { seqno: string; address: string } }>('/block/:seqno/:address', async (req, reply) => {
    const a = parseAddress(req.params.address)
    if (!a) return badAddress(reply)
    return { account: await accountJson(chain, a, false), block: blockRef(chain) }
  })

  app.get<{ Params: { seqno: string; address: string } }>('/block/:seqno/:address/lite', async (req, reply) => {
    const a = parseAddress(req.params.address)
    if (!a) return badAddress(reply)
    return { account: await accountJson(chain, a, true) }
  })

  app.get<{ Params: { seqno: string; address: string; lt: string } }>('/block/:seqno/:address/changed/:lt', async (req, reply) => {
    const a = parseAddress(req.params.address)
    if (!a) return badAddress(reply)
    if (!/^\d{0,20}$/.test(req.params.lt)) return reply.code(400).send({ error: 'lt must be a decimal number' })
    const last = await chain.exclusive(async () => (await chain.blockchain.getContract(a)).lastTransactionLt)
    return { changed: last > BigInt(req.params.lt || '0'), block: blockRef(chain) }
  })

  const runMethod = async (address: string, method: string, args: string | undefined, reply: FastifyReply) => {
    const a = parseAddress(address)
    if (!a) return badAddress(reply)
    let stack: TupleItem[] = []
    if (args) {
      try {
        stack = parseTuple(Cell.fromBoc(Buffer.from(fromUrlSafe(decodeURIComponent(args)), 'base64'))[0]!)
      } catch {
        return reply.code(400).send({ error: 'Invalid arguments' })
      }
    }
    const block = blockRef(chain)
    try {
      const r = await chain.exclusive(() => chain.blockchain.runGetMethod(a, decodeURIComponent(method), stack))
      return { exitCode: r.exitCode, resultRaw: serializeTuple(r.stack).toBoc({ idx: false, crc32: false }).toString('base64'), block, shardBlock: block }
    } catch (e) {
      const exitCode = typeof (e as { exitCode?: unknown }).exitCode === 'number' ? (e as { exitCode: number }).exitCode : -256
      return { exitCode, resultRaw: null, block, shardBlock: block }
    }
  }
  app.get<{ Params: { seqno: string; address: string; method: string } }>('/block/:seqno/:address/run/:method', (req, reply) =>
    runMethod(req.params.address, req.params.method, undefined, reply),
  )
  app.get<{ Params: { seqno: string; address: string; method: string; args: string } }>(
    '/block/:seqno/:address/run/:method/:args',
    (req, reply) => runMethod(req.params.address, req.params.method, req.params.args, reply),
  )

  /**
   * An account's history (TonClient4.getAccountTransactions): from the transaction (lt, hash) back,
   * newest first, up to TX_PAGE; `boc` is one bag with a root per transaction, `blocks` their blocks.
   */
  app.get<{ Params: { address: string; lt: string; hash: string } }>('/account/:address/tx/:lt/:hash', async (req, reply) => {
    const a = parseAddress(req.params.address)
    if (!a) return badAddress(reply)
    if (!/^\d{1,20}$/.test(req.params.lt)) return reply.code(400).send({ error: 'lt must be a decimal number' })
    const lt = BigInt(req.params.lt)
    const hash = Buffer.from(fromUrlSafe(decodeURIComponent(req.params.hash)), 'base64')
    const txs = chain.transactionsOf(a)
    const at = txs.findIndex((t) => t.tx.lt === lt && t.tx.hash().equals(hash))
    if (at < 0) return reply.code(404).send({ error: 'Transaction not found' })
    const page = txs.slice(Math.max(0, at - TX_PAGE + 1), at + 1).reverse()
    const b = chain.lastBlock
    return {
      blocks: page.map((t) => ({ workchain: 0, seqno: t.block, shard: b.shard, rootHash: blockHashOf(t.block, 'root'), fileHash: blockHashOf(t.block, 'file') })),
      boc: multiRootBoc(page.map((t) => t.tx.raw)).toString('base64'),
    }
  })

  /**
   * Accepts an external message (TonClient4.sendMessage): answered once the chain accepts it, as a
   * node does, not when its block comes (the clocked chain). A message the chain refuses answers 400.
   */
  app.post<{ Body: { boc?: unknown } }>('/send', async (req, reply) => {
    const boc = (req.body as { boc?: unknown } | undefined)?.boc
    if (typeof boc !== 'string') return reply.code(400).send({ status: 0, error: 'boc is required' })
    let cell: Cell
    try {
      cell = Cell.fromBoc(Buffer.from(boc, 'base64'))[0]!
    } catch {
      return reply.code(400).send({ status: 0, error: 'Invalid boc' })
    }
    try {
      await chain.accept(cell)
    } catch (e) {
      return reply.code(400).send({ status: 0, error: e instanceof Error ? e.message.split('\n')[0] : String(e) })
    }
    return { status: 1 }
  })
}
