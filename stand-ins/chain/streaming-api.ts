import { Address, beginCell, storeMessage, type Message } from '@ton/core'
import type { BlockchainTransaction } from '@ton/sandbox'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { WebSocketServer } from 'ws'
import { readComment, traceHashNorm, type ChainTx, type LocalChain, type TraceEvent } from './local-chain.ts'

/**
 * The TON Center Streaming API v2 over the local chain, its SSE transport, as the docs describe it:
 *   https://docs.ton.org/ecosystem/api/toncenter/streaming/sse        (request, `{"status": "subscribed"}`, `: keepalive`)
 *   https://docs.ton.org/ecosystem/api/toncenter/streaming/reference  (notifications, finality, trace_invalidated)
 *   https://docs.ton.org/ecosystem/api/toncenter/v3 (v3.yaml)         (the Transaction, Message, MessageContent, DecodedContent schemas)
 *
 * `POST /api/streaming/v2/sse` with `types`, `addresses`, `min_finality` (default `finalized`). Served:
 * `transactions` (per trace, the subscribed accounts' transactions, newest first, as its finality
 * moves) and `trace_invalidated` (a trace this subscriber was told of, taken back before finality).
 * Accepted but never emitted here: `actions`, `trace`, `account_state_change`, `jettons_change`.
 * Each message is one SSE `data:` line of JSON and a blank line (the docs show the payloads, not the
 * framing; this is the SSE standard's framing). What the docs leave open and this stand-in chooses:
 * raw addresses in upper-case hex (the docs' examples: "0:18AA..."), hashes in standard base64 (the
 * docs: "All hashes are given in the Base64 format"), `decoded.type` "text_comment" for a comment.
 * The WebSocket transport (`/api/streaming/v2/ws`, docs.ton.org/ecosystem/api/toncenter/streaming/wss)
 * carries the same notifications after a `subscribe` operation.
 */

export const STREAM_SSE_PATH = '/api/streaming/v2/sse'
export const STREAM_WS_PATH = '/api/streaming/v2/ws'
/** The docs: "the server sends the following `keepalive` line every 15 seconds". */
export const KEEPALIVE_MS = 15_000

const TYPES = new Set(['transactions', 'actions', 'trace', 'trace_invalidated', 'account_state_change', 'jettons_change'])
const FINALITY = ['pending', 'confirmed', 'finalized'] as const
type Finality = (typeof FINALITY)[number]

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`
const b64Hash = (v: bigint) => Buffer.from(v.toString(16).padStart(64, '0'), 'hex').toString('base64')

/** A message as v3's `Message` schema. */
export const messageJson = (m: Message) => {
  const body = m.body
  const comment = readComment(body)
  const bodyBits = body.beginParse()
  const opcode = bodyBits.remainingBits >= 32 ? bodyBits.loadInt(32) : null
  const hash = beginCell().store(storeMessage(m)).endCell().hash().toString('base64')
  const content = { hash: body.hash().toString('base64'), body: body.toBoc().toString('base64'), decoded: comment !== null ? { type: 'text_comment', comment } : null }
  if (m.info.type === 'internal') {
    return {
      hash,
      source: raw(m.info.src),
      destination: raw(m.info.dest),
      value: m.info.value.coins.toString(),
      fwd_fee: m.info.forwardFee.toString(),
      ihr_fee: m.info.ihrFee.toString(),
      created_lt: m.info.createdLt.toString(),
      created_at: String(m.info.createdAt),
      opcode,
      ihr_disabled: m.info.ihrDisabled,
      bounce: m.info.bounce,
      bounced: m.info.bounced,
      import_fee: null,
      message_content: content,
      init_state: null,
    }
  }
  if (m.info.type === 'external-in') {
    return {
      hash,
      hash_norm: traceHashNorm(m),
      source: null,
      destination: raw(m.info.dest),
      value: null,
      fwd_fee: null,
      ihr_fee: null,
      created_lt: null,
      created_at: null,
      opcode,
      ihr_disabled: null,
      bounce: null,
      bounced: null,
      import_fee: m.info.importFee.toString(),
      message_content: content,
      init_state: null,
    }
  }
  return {
    hash,
    source: raw(m.info.src),
    destination: null,
    value: null,
    created_lt: m.info.createdLt.toString(),
    created_at: String(m.info.createdAt),
    opcode,
    message_content: content,
    init_state: null,
  }
}

/** A transaction as v3's `Transaction` schema (the fields a payment processor reads, and the block it is in). */
export const transactionJson = (t: ChainTx, finality: Finality, hashNorm: string) => {
  const tx: BlockchainTransaction = t.tx
  const d = tx.description
  return {
    account: raw(t.address),
    hash: tx.hash().toString('base64'),
    lt: tx.lt.toString(),
    now: tx.now,
    mc_block_seqno: t.block > 0 ? t.block : null,
    trace_id: hashNorm,
    trace_external_hash: hashNorm,
    prev_trans_hash: b64Hash(tx.prevTransactionHash),
    prev_trans_lt: tx.prevTransactionLt.toString(),
    orig_status: tx.oldStatus,
    end_status: tx.endStatus,
    total_fees: tx.totalFees.coins.toString(),
    description: { type: d.type === 'generic' ? 'ord' : d.type, aborted: d.type === 'generic' ? d.aborted : false },
    block_ref: t.block > 0 ? { workchain: 0, shard: '8000000000000000', seqno: t.block } : null,
    in_msg: tx.inMessage ? messageJson(tx.inMessage) : null,
    out_msgs: [...tx.outMessages.values()].map(messageJson),
    emulated: finality === 'pending',
  }
}

interface Subscription {
  readonly types: ReadonlySet<string>
  readonly addresses: ReadonlyArray<Address>
  readonly minFinality: Finality
}

const parseSubscription = (body: unknown): Subscription | string => {
  const b = (typeof body === 'string' ? (() => {
    try {
      return JSON.parse(body || '{}')
    } catch {
      return null
    }
  })() : body) as Record<string, unknown> | null
  if (!b || typeof b !== 'object') return 'the body must be a JSON object'
  const types = b.types
  if (!Array.isArray(types) || types.length === 0 || !types.every((t) => typeof t === 'string' && TYPES.has(t))) {
    return `types must be a non-empty list of ${[...TYPES].join(', ')}`
  }
  const onlyTrace = types.every((t) => t === 'trace')
  const list = b.addresses ?? []
  if (!Array.isArray(list) || !list.every((a) => typeof a === 'string')) return 'addresses must be a list of addresses'
  if (!onlyTrace && list.length === 0) return 'addresses are required unless only "trace" is asked'
  const addresses: Address[] = []
  for (const a of list as string[]) {
    try {
      addresses.push(Address.parse(a))
    } catch {
      return `not a TON address: ${a}`
    }
  }
  const min = b.min_finality ?? 'finalized'
  if (typeof min !== 'string' || !(FINALITY as ReadonlyArray<string>).includes(min)) return 'min_finality must be pending, confirmed or finalized'
  return { types: new Set(types as string[]), addresses, minFinality: min as Finality }
}

export interface StreamingApi {
  /** Open subscriptions (SSE streams and WebSocket connections). */
  readonly open: number
  /** Ends every open subscription (a dropped connection, as a provider's restart does). */
  dropAll(): void
}

/**
 * Feeds one subscription from the chain's trace events: `write` gets each notification for `sub()`
 * (read at each event: a WebSocket's subscribe replaces it). Answers the unsubscription.
 */
const feed = (chain: LocalChain, sub: () => Subscription | null, write: (payload: unknown) => void): (() => void) => {
  const told = new Set<string>()
  return chain.onTrace((e: TraceEvent) => {
    const s = sub()
    if (!s) return
    if (e.type === 'trace_invalidated') {
      // Only a trace this subscriber was told of, and never after it was finalized (the chain never invalidates one).
      if (s.types.has('trace_invalidated') && told.delete(e.hashNorm)) write({ type: 'trace_invalidated', trace_external_hash_norm: e.hashNorm })
      return
    }
    if (!s.types.has('transactions') || FINALITY.indexOf(e.finality) < FINALITY.indexOf(s.minFinality)) return
    const mine = e.txs.filter((t) => s.addresses.some((a) => a.equals(t.address)))
    if (mine.length === 0) return
    if (e.finality === 'finalized') told.delete(e.hashNorm)
    else told.add(e.hashNorm)
    const newestFirst = [...mine].sort((a, b) => (a.tx.lt < b.tx.lt ? 1 : a.tx.lt > b.tx.lt ? -1 : 0))
    write({
      type: 'transactions',
      finality: e.finality,
      trace_external_hash_norm: e.hashNorm,
      transactions: newestFirst.map((t) => transactionJson(t, e.finality, e.hashNorm)),
    })
  })
}

/**
 * Registers the SSE endpoint and the WebSocket one on `app` (before it listens), fed by the chain's
 * trace events.
 */
export const registerStreamingRoutes = (app: FastifyInstance, chain: LocalChain): StreamingApi => {
  const open = new Set<{ end(): void }>()
  app.post(STREAM_SSE_PATH, async (req, reply: FastifyReply) => {
    const sub = parseSubscription(req.body)
    if (typeof sub === 'string') return reply.code(400).send({ error: sub })
    reply.hijack()
    const res = reply.raw
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive', 'Access-Control-Allow-Origin': '*' })
    const write = (payload: unknown) => {
      if (!res.writableEnded) res.write(`data: ${JSON.stringify(payload)}\n\n`)
    }
    write({ status: 'subscribed' })
    const off = feed(chain, () => sub, write)
    const keepalive = setInterval(() => {
      if (!res.writableEnded) res.write(': keepalive\n\n')
    }, KEEPALIVE_MS)
    keepalive.unref()
    const entry = {
      end: () => {
        off()
        clearInterval(keepalive)
        open.delete(entry)
        if (!res.writableEnded) res.end()
      },
    }
    open.add(entry)
    res.on('close', entry.end)
  })

  // The WebSocket transport (docs.ton.org/ecosystem/api/toncenter/streaming/wss): JSON operations
  // `subscribe` (replaces the connection's whole subscription; `{"id", "status": "subscribed"}`),
  // `unsubscribe` (addresses taken out; `"unsubscribed"`) and `ping` (`"pong"`), each with an optional
  // `id` echoed; the notifications are the SSE ones, one JSON text frame each. A request it cannot
  // take is answered `{"id", "error"}` (the docs give no error shape).
  const wss = new WebSocketServer({ noServer: true })
  app.server.on('upgrade', (req, socket, head) => {
    if ((req.url ?? '').split('?')[0] !== STREAM_WS_PATH) return
    wss.handleUpgrade(req, socket, head, (ws) => {
      let sub: Subscription | null = null
      const write = (payload: unknown) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(payload))
      }
      const off = feed(chain, () => sub, write)
      const entry = {
        end: () => {
          off()
          open.delete(entry)
          ws.terminate()
        },
      }
      open.add(entry)
      ws.on('close', entry.end)
      ws.on('message', (data) => {
        let m: Record<string, unknown> | null = null
        try {
          const v = JSON.parse(data.toString()) as unknown
          m = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null
        } catch {
          m = null
        }
        const id = typeof m?.id === 'string' ? { id: m.id } : {}
        if (!m) return write({ error: 'the message must be a JSON object' })
        if (m.operation === 'ping') return write({ ...id, status: 'pong' })
        if (m.operation === 'subscribe') {
          const next = parseSubscription(m)
          if (typeof next === 'string') return write({ ...id, error: next })
          sub = next
          return write({ ...id, status: 'subscribed' })
        }
        if (m.operation === 'unsubscribe') {
          const list = m.addresses ?? []
          if (!Array.isArray(list) || !list.every((a) => typeof a === 'string')) return write({ ...id, error: 'addresses must be a list of addresses' })
          const gone: Address[] = []
          for (const a of list as string[]) {
            try {
              gone.push(Address.parse(a))
            } catch {
              return write({ ...id, error: `not a TON address: ${a}` })
            }
          }
          if (sub) sub = { ...sub, addresses: sub.addresses.filter((a) => !gone.some((g) => g.equals(a))) }
          return write({ ...id, status: 'unsubscribed' })
        }
        return write({ ...id, error: 'operation must be subscribe, unsubscribe or ping' })
      })
    })
  })
  app.addHook('onClose', async () => {
    for (const e of [...open]) e.end()
    wss.close()
  })
  return {
    get open() {
      return open.size
    },
    dropAll: () => {
      for (const e of [...open]) {
        e.end()
      }
    },
  }
}
