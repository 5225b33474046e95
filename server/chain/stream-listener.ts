import { Address } from '@ton/core'
import WebSocket from 'ws'

/**
 * A client of the TON Center Streaming API v2 over SSE (TonAPI serves the same protocol), written from
 * its documentation:
 *   https://docs.ton.org/ecosystem/api/toncenter/streaming/sse        (POST with `types`, `addresses`,
 *     `min_finality`; `{"status": "subscribed"}` first; `: keepalive` every 15 s; 429 on a fast reconnect)
 *   https://docs.ton.org/ecosystem/api/toncenter/streaming/reference  (`transactions` notifications per
 *     trace with `finality` and `trace_external_hash_norm`, v3 Transaction objects; `trace_invalidated`)
 *   https://docs.ton.org/ecosystem/api/toncenter/v3-authentication    (the key: header `X-API-Key`)
 *   https://docs.ton.org/ecosystem/api/toncenter/streaming/wss        (the WebSocket transport: JSON
 *     operations `subscribe` answered `{"id", "status": "subscribed"}`, `ping` every 15 s answered `pong`)
 *
 * The URL's scheme chooses the transport: https (http locally) SSE, wss (ws locally) WebSocket; the
 * notifications are the same, and so is all the rest.
 *
 * It subscribes to the treasury's `transactions` and `trace_invalidated` from `pending` on, and says
 * what it hears; it credits nothing. The watcher's v4 history stays the only source of what is
 * credited: the stream only wakes it (and tells the app a payment was seen). The stream replays
 * nothing missed, so each (re)subscription is reported (`onSubscribed`): the watcher then reads the
 * history from its cursor. A stream that ends, fails or is silent past `silenceMs` is opened again
 * after a backoff (1 s doubling to 30 s; the docs: a reconnect at once may get 429).
 *
 * What the docs leave open: the SSE framing (each message is taken as the standard's `data:` lines up
 * to a blank line; `event:`, `id:` and `retry:` fields are ignored, the JSON's `type` is what counts);
 * the encoding of hashes (taken as base64, as v3's, or hex); TonAPI's endpoint and key parameter (not
 * in the pages read: the key is sent as `X-API-Key`, toncenter's, and as `Authorization: Bearer`,
 * TonAPI's REST scheme).
 */

export type Finality = 'pending' | 'confirmed' | 'finalized'

/** One transaction of a `transactions` notification, the fields AXIOM reads (v3's Transaction and Message). */
export interface StreamTx {
  /** The transaction's hash, hex. */
  readonly hash: string
  readonly lt: bigint
  /** The account it ran on, raw (0:hex). */
  readonly account: string
  /** Its inbound message: source (null for an external one), destination, value, and text comment. */
  readonly source: string | null
  readonly valueNano: bigint | null
  readonly comment: string | null
}

export type StreamNotice =
  | { readonly type: 'transactions'; readonly finality: Finality; readonly hashNorm: string; readonly txs: ReadonlyArray<StreamTx> }
  | { readonly type: 'trace_invalidated'; readonly hashNorm: string }

export interface StreamSettings {
  /**
   * The endpoint (AXIOM_TON_STREAM), its scheme choosing the transport: SSE at https://toncenter.com/api/streaming/v2/sse,
   * WebSocket at wss://toncenter.com/api/streaming/v2/ws (testnet.toncenter.com's, TonAPI's alike).
   */
  readonly url: string
  /** The provider's key (AXIOM_TON_STREAM_KEY). */
  readonly key?: string
}

/** The stream's settings from the environment, or null (AXIOM_TON_STREAM unset: the watcher polls only). */
export const streamFromEnv = (env: NodeJS.ProcessEnv = process.env): StreamSettings | null => {
  const url = env.AXIOM_TON_STREAM?.trim()
  if (!url) return null
  const key = env.AXIOM_TON_STREAM_KEY?.trim()
  return { url, ...(key ? { key } : {}) }
}

/** A hash the stream gives (base64, base64url or hex) as hex; null if it is none of them. */
export const hashHex = (text: string): string | null => {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return text.toLowerCase()
  const b = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
  return b.length === 32 ? b.toString('hex') : null
}

const rawAddress = (text: unknown): string | null => {
  if (typeof text !== 'string' || text.length === 0) return null
  try {
    return Address.parse(text).toRawString()
  } catch {
    return null
  }
}

const obj = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null)

const txOf = (v: unknown): StreamTx | null => {
  const t = obj(v)
  if (!t) return null
  const hash = typeof t.hash === 'string' ? hashHex(t.hash) : null
  const account = rawAddress(t.account)
  if (!hash || !account || typeof t.lt !== 'string' || !/^\d{1,20}$/.test(t.lt)) return null
  const inMsg = obj(t.in_msg)
  const decoded = obj(obj(inMsg?.message_content)?.decoded)
  const value = inMsg && typeof inMsg.value === 'string' && /^\d{1,30}$/.test(inMsg.value) ? BigInt(inMsg.value) : null
  return {
    hash,
    lt: BigInt(t.lt),
    account,
    source: rawAddress(inMsg?.source),
    valueNano: value,
    comment: decoded && typeof decoded.comment === 'string' ? decoded.comment : null,
  }
}

const FINALITIES: ReadonlyArray<string> = ['pending', 'confirmed', 'finalized']

/**
 * One SSE message's data, read by the reference's schemas: a `transactions` or `trace_invalidated`
 * notification, `subscribed`, or null (anything else; a transaction it cannot read is left out).
 */
export const readStreamMessage = (data: string): StreamNotice | 'subscribed' | null => {
  let v: unknown
  try {
    v = JSON.parse(data)
  } catch {
    return null
  }
  const m = obj(v)
  if (!m) return null
  if (m.status === 'subscribed') return 'subscribed'
  const hashNorm = typeof m.trace_external_hash_norm === 'string' ? m.trace_external_hash_norm : null
  if (m.type === 'trace_invalidated') return hashNorm ? { type: 'trace_invalidated', hashNorm } : null
  if (m.type !== 'transactions' || !hashNorm || typeof m.finality !== 'string' || !FINALITIES.includes(m.finality) || !Array.isArray(m.transactions)) return null
  const txs = m.transactions.map(txOf).filter((t): t is StreamTx => t !== null)
  return { type: 'transactions', finality: m.finality as Finality, hashNorm, txs }
}

/**
 * The SSE standard's parser (html.spec.whatwg.org, "Interpreting an event stream"), for what this
 * client needs: lines end in LF, CRLF or CR; a line starting with `:` is a comment (the keepalive); a
 * `data` field's values are joined with LF; a blank line ends a message. Other fields are dropped.
 */
export const sseParser = () => {
  let buffer = ''
  let data: string[] = []
  let lastWasCr = false
  return {
    /** Feeds text; answers the data of each message it completed. */
    push(text: string): string[] {
      let t = text
      // A CRLF split across two chunks: the LF is the CR's.
      if (lastWasCr && t.startsWith('\n')) t = t.slice(1)
      buffer += t
      lastWasCr = buffer.endsWith('\r')
      const out: string[] = []
      for (;;) {
        const m = /\r\n|\n|\r/.exec(buffer)
        if (!m) break
        const line = buffer.slice(0, m.index)
        buffer = buffer.slice(m.index + m[0].length)
        if (line === '') {
          if (data.length > 0) out.push(data.join('\n'))
          data = []
          continue
        }
        if (line.startsWith(':')) continue
        const colon = line.indexOf(':')
        const field = colon < 0 ? line : line.slice(0, colon)
        let value = colon < 0 ? '' : line.slice(colon + 1)
        if (value.startsWith(' ')) value = value.slice(1)
        if (field === 'data') data.push(value)
      }
      return out
    },
  }
}

export interface StreamListenerOptions extends StreamSettings {
  /** The account watched (the treasury). */
  readonly address: Address
  /** Each notice, in the order it came. */
  readonly onNotice: (n: StreamNotice) => void
  /** The stream is (again) subscribed: what it missed meanwhile is read from the history. */
  readonly onSubscribed: () => void
  /** A stream silent (not even a keepalive) this long is opened again (default SILENCE_MS). */
  readonly silenceMs?: number
  readonly backoffMs?: { readonly min: number; readonly max: number }
  readonly fetch?: typeof fetch
  readonly log?: (msg: string) => void
}

/** Three keepalives missed (the docs: one every 15 s). */
export const SILENCE_MS = 45_000
/** The WebSocket's `ping` (the docs: "every 15 seconds to keep the connection active"); its `pong` counts as heard. */
export const PING_MS = 15_000
export const BACKOFF_MS = { min: 1_000, max: 30_000 }

export interface StreamListener {
  /** Subscribed now (the `subscribed` message came and the stream has not ended since). */
  readonly subscribed: boolean
  /** Notices heard since the start. */
  readonly notices: number
  /** Subscriptions made since the start (1 + the reconnects). */
  readonly subscriptions: number
  stop(): Promise<void>
}

/** Subscribes to `address`'s transactions and keeps the subscription open until stopped. */
export const startStreamListener = (o: StreamListenerOptions): StreamListener => {
  const doFetch = o.fetch ?? fetch
  const log = o.log ?? ((msg: string) => console.error(`[chain] ${msg}`))
  const silenceMs = o.silenceMs ?? SILENCE_MS
  const backoff = o.backoffMs ?? BACKOFF_MS
  let stopped = false
  let subscribed = false
  let notices = 0
  let subscriptions = 0
  let current: AbortController | null = null
  let wake: (() => void) | null = null
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'text/event-stream' }
  if (o.key) {
    headers['X-API-Key'] = o.key
    headers.Authorization = `Bearer ${o.key}`
  }

  const subscribeRequest = { types: ['transactions', 'trace_invalidated'], addresses: [o.address.toRawString()], min_finality: 'pending' }
  const webSocket = /^wss?:$/.test(new URL(o.url).protocol)

  /** A message read from either transport: a subscription (again), or a notice once subscribed. */
  const handle = (data: string, wasSubscribed: boolean): boolean => {
    const m = readStreamMessage(data)
    if (m === 'subscribed') {
      subscribed = true
      subscriptions++
      o.onSubscribed()
      return true
    }
    if (m && wasSubscribed) {
      notices++
      o.onNotice(m)
    }
    return wasSubscribed
  }

  /** One WebSocket connection: subscribes, pings, and resolves when it ends; answers whether it was subscribed. */
  const onceWebSocket = (): Promise<boolean> =>
    new Promise<boolean>((resolve) => {
      const wsHeaders: Record<string, string> = {}
      if (o.key) {
        wsHeaders['X-API-Key'] = o.key
        wsHeaders.Authorization = `Bearer ${o.key}`
      }
      const ws = new WebSocket(o.url, { headers: wsHeaders })
      let wasSubscribed = false
      let silence: ReturnType<typeof setTimeout> | null = null
      let ping: ReturnType<typeof setInterval> | null = null
      let pings = 0
      let ended = false
      const end = (why: string | null) => {
        if (ended) return
        ended = true
        if (silence) clearTimeout(silence)
        if (ping) clearInterval(ping)
        current = null
        subscribed = false
        ws.removeAllListeners('message')
        ws.on('error', () => undefined)
        ws.terminate()
        if (!stopped) log(why ? `the TON stream failed (${why}): opened again (the watcher polls meanwhile)` : 'the TON stream ended: opened again (the watcher polls meanwhile)')
        resolve(wasSubscribed)
      }
      const heard = () => {
        if (silence) clearTimeout(silence)
        silence = setTimeout(() => end(`no message or pong in ${silenceMs / 1000} s`), silenceMs)
      }
      const abort = new AbortController()
      abort.signal.addEventListener('abort', () => end(null))
      current = abort
      heard()
      ws.on('open', () => {
        ws.send(JSON.stringify({ operation: 'subscribe', ...subscribeRequest, id: 'axiom-subscribe' }))
        ping = setInterval(() => {
          if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ operation: 'ping', id: `axiom-ping-${++pings}` }))
        }, Math.min(PING_MS, Math.max(100, Math.floor(silenceMs / 3))))
        ping.unref()
      })
      ws.on('message', (raw) => {
        heard()
        wasSubscribed = handle(raw.toString(), wasSubscribed)
      })
      ws.on('unexpected-response', (_req, res) => end(`the stream answered ${res.statusCode}`))
      ws.on('error', (e) => end(e.message))
      ws.on('close', () => end(null))
    })

  /** One connection: resolves when it ends (closed, failed, silent, stopped); answers whether it was subscribed. */
  const once = async (): Promise<boolean> => {
    if (webSocket) return onceWebSocket()
    const abort = new AbortController()
    current = abort
    let silence: ReturnType<typeof setTimeout> | null = null
    const heard = () => {
      if (silence) clearTimeout(silence)
      silence = setTimeout(() => abort.abort(new Error(`no message or keepalive in ${silenceMs / 1000} s`)), silenceMs)
    }
    let wasSubscribed = false
    try {
      heard()
      const res = await doFetch(o.url, { method: 'POST', headers, body: JSON.stringify(subscribeRequest), signal: abort.signal })
      if (!res.ok || !res.body) throw new Error(`the stream answered ${res.status}`)
      const parser = sseParser()
      const decoder = new TextDecoder()
      const reader = res.body.getReader()
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        heard()
        for (const data of parser.push(decoder.decode(value, { stream: true }))) wasSubscribed = handle(data, wasSubscribed)
      }
      if (!stopped) log('the TON stream ended: opened again (the watcher polls meanwhile)')
    } catch (e) {
      if (!stopped) log(`the TON stream failed (${e instanceof Error ? e.message : String(e)}): opened again (the watcher polls meanwhile)`)
    } finally {
      if (silence) clearTimeout(silence)
      subscribed = false
      current = null
      abort.abort()
    }
    return wasSubscribed
  }

  const loop = (async () => {
    let delay = backoff.min
    while (!stopped) {
      const ok = await once()
      if (stopped) break
      if (ok) delay = backoff.min
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, delay)
        wake = () => {
          clearTimeout(t)
          resolve()
        }
      })
      wake = null
      if (!ok) delay = Math.min(backoff.max, delay * 2)
    }
  })()

  return {
    get subscribed() {
      return subscribed
    },
    get notices() {
      return notices
    },
    get subscriptions() {
      return subscriptions
    },
    stop: async () => {
      stopped = true
      current?.abort()
      wake?.()
      await loop
    },
  }
}
