import type { ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'

/**
 * A TON Connect HTTP bridge (the protocol @tonconnect/sdk's BridgeGateway speaks):
 * - `GET {bridge}/events?client_id=<hex>[,<hex>…][&last_event_id=N]`: an SSE stream; each message is
 *   `id: N` + `data: {"from","message"}`; `data: heartbeat` every few seconds.
 * - `POST {bridge}/message?client_id=&to=&ttl=&topic=` with the base64 body: stored for `ttl`
 *   seconds (≤ 300) under an increasing id, fanned out to every listener of `to`, replayed to a
 *   listener that reconnects with an older `last_event_id`. No `last_event_id`: every stored message.
 * The bridge never reads the bodies (they are nacl.box-encrypted end to end).
 */

export interface BridgeMessage {
  readonly id: number
  readonly from: string
  readonly to: string
  readonly message: string
  readonly expiresAt: number
  readonly topic?: string
}

export type BridgeListener = (m: BridgeMessage) => void

export interface BridgeOptions {
  /** Heartbeat interval (ms), default 5000. */
  readonly heartbeatMs?: number
  /** Longest accepted ttl (s), default 300 as the public bridges. */
  readonly maxTtlS?: number
}

const CLIENT_ID = /^[0-9a-f]{64}$/i

export class Bridge {
  private nextId = 1
  private readonly store = new Map<string, BridgeMessage[]>()
  private readonly listeners = new Map<string, Set<BridgeListener>>()
  private readonly streams = new Set<ServerResponse>()
  private readonly timers: ReturnType<typeof setInterval>[] = []
  readonly heartbeatMs: number
  readonly maxTtlS: number

  constructor(options: BridgeOptions = {}) {
    this.heartbeatMs = options.heartbeatMs ?? 5000
    this.maxTtlS = options.maxTtlS ?? 300
    const prune = setInterval(() => this.prune(), 10_000)
    prune.unref()
    this.timers.push(prune)
  }

  /** Stores and fans out one message (what POST /message does; the in-process dev wallet calls it directly). */
  publish(from: string, to: string, message: string, ttlS: number, topic?: string): BridgeMessage {
    const m: BridgeMessage = {
      id: this.nextId++,
      from: from.toLowerCase(),
      to: to.toLowerCase(),
      message,
      expiresAt: Date.now() + ttlS * 1000,
      ...(topic ? { topic } : {}),
    }
    const list = this.store.get(m.to) ?? []
    list.push(m)
    this.store.set(m.to, list)
    for (const l of [...(this.listeners.get(m.to) ?? [])]) {
      try {
        l(m)
      } catch (e) {
        console.error('[bridge] listener failed:', e)
      }
    }
    return m
  }

  /** Subscribes to messages for `clientId`; stored ones after `lastEventId` (all when undefined) are replayed first. */
  subscribe(clientId: string, listener: BridgeListener, lastEventId?: number): () => void {
    const id = clientId.toLowerCase()
    const now = Date.now()
    for (const m of this.store.get(id) ?? []) {
      if (m.expiresAt > now && (lastEventId === undefined || m.id > lastEventId)) listener(m)
    }
    let set = this.listeners.get(id)
    if (!set) {
      set = new Set()
      this.listeners.set(id, set)
    }
    set.add(listener)
    return () => {
      set.delete(listener)
      if (set.size === 0) this.listeners.delete(id)
    }
  }

  /** Messages still stored for `clientId` (tests, debugging). */
  stored(clientId: string): ReadonlyArray<BridgeMessage> {
    return this.store.get(clientId.toLowerCase()) ?? []
  }

  listenerCount(clientId: string): number {
    return this.listeners.get(clientId.toLowerCase())?.size ?? 0
  }

  private prune(): void {
    const now = Date.now()
    for (const [k, list] of this.store) {
      const kept = list.filter((m) => m.expiresAt > now)
      if (kept.length) this.store.set(k, kept)
      else this.store.delete(k)
    }
  }

  /** Registers GET `${prefix}/events` and POST `${prefix}/message`. */
  register(app: FastifyInstance, prefix = '/bridge'): void {
    app.get<{ Querystring: { client_id?: string; last_event_id?: string } }>(`${prefix}/events`, (req, reply) => {
      const ids = String(req.query.client_id ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
      if (ids.length === 0 || !ids.every((s) => CLIENT_ID.test(s))) {
        return reply.code(400).send({ statusCode: 400, message: 'client_id must be 32 bytes of hex' })
      }
      const headerLast = req.headers['last-event-id']
      const lastText = req.query.last_event_id ?? (typeof headerLast === 'string' ? headerLast : undefined)
      const last = lastText !== undefined && /^\d+$/.test(lastText) ? Number(lastText) : undefined
      reply.hijack()
      const res = reply.raw
      res.writeHead(200, {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache, no-transform',
        Connection: 'keep-alive',
        'Access-Control-Allow-Origin': '*',
        'X-Accel-Buffering': 'no',
      })
      res.flushHeaders()
      this.streams.add(res)
      const write = (m: BridgeMessage) =>
        res.write(`id: ${m.id}\ndata: ${JSON.stringify({ from: m.from, message: m.message })}\n\n`)
      const offs = ids.map((id) => this.subscribe(id, write, last))
      const beat = setInterval(() => res.write('event: message\ndata: heartbeat\n\n'), this.heartbeatMs)
      beat.unref()
      const close = () => {
        clearInterval(beat)
        for (const off of offs) off()
        this.streams.delete(res)
      }
      req.raw.on('close', close)
      res.on('close', close)
    })

    app.post<{ Querystring: { client_id?: string; to?: string; ttl?: string; topic?: string } }>(
      `${prefix}/message`,
      async (req, reply) => {
        const { client_id: from, to, ttl, topic } = req.query
        if (!from || !CLIENT_ID.test(from)) return reply.code(400).send({ statusCode: 400, message: 'client_id must be 32 bytes of hex' })
        if (!to || !CLIENT_ID.test(to)) return reply.code(400).send({ statusCode: 400, message: 'to must be 32 bytes of hex' })
        const ttlS = Number(ttl)
        if (!Number.isInteger(ttlS) || ttlS < 1 || ttlS > this.maxTtlS) {
          return reply.code(400).send({ statusCode: 400, message: `ttl must be 1…${this.maxTtlS}` })
        }
        const body = typeof req.body === 'string' ? req.body.trim() : Buffer.isBuffer(req.body) ? req.body.toString('utf8').trim() : ''
        if (!body || !/^[A-Za-z0-9+/=_-]+$/.test(body)) return reply.code(400).send({ statusCode: 400, message: 'body must be base64' })
        this.publish(from, to, body, ttlS, topic)
        return { message: 'OK', statusCode: 200 }
      },
    )
  }

  close(): void {
    for (const t of this.timers) clearInterval(t)
    for (const res of this.streams) res.end()
    this.streams.clear()
    this.listeners.clear()
  }
}
