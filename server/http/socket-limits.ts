import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { RateCount, RateLimitStore, SocketLimitConfig } from '../config/rate-limits.ts'
import { clientIp } from './client-ip.ts'
import { tooManyMsg } from './rate-limits.ts'

export const tooManySocketsMsg = (open: number) => `Too many open sockets from this address (at most ${open}): close one first`

export const FOREIGN_ORIGIN_MSG = 'This origin may not open the sockets'

/** A refusal, written on the raw socket: the upgrade never reaches Fastify's hooks. */
export interface SocketRefusal {
  /** 429 when absent. */
  readonly status?: 403 | 429
  readonly msg: string
  readonly retryAfterS: number | null
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * Whether a socket upgrade's Origin may open a socket. A browser always sends Origin, so a page of
 * another site (which would ride on the user's browser) is refused unless its origin is one of
 * `appOrigins`; a client that sends none (the CLI, the bot, a script: it holds its own token, nothing
 * of a user's browser) is let in. With `appOrigins` null (dev), http(s) on this machine, any port.
 * Two Origin headers, or one that is not an origin (`null`), are refused.
 */
export const originAllowed = (req: IncomingMessage, appOrigins: ReadonlyArray<string> | null): boolean => {
  const header = req.headers.origin ?? req.headers['sec-websocket-origin']
  if (header === undefined) return true
  if (typeof header !== 'string') return false
  let url: URL
  try {
    url = new URL(header)
  } catch {
    return false
  }
  if (url.origin !== header.toLowerCase() && url.origin !== header) return false
  if (appOrigins === null) return (url.protocol === 'http:' || url.protocol === 'https:') && LOCAL_HOSTS.has(url.hostname)
  return appOrigins.includes(url.origin)
}

/** Whether an upgrade may go on, or how it is refused. */
export type SocketAdmission = { readonly ok: true } | { readonly ok: false; readonly refusal: SocketRefusal }

/**
 * Fixed windows per key in this process, the least recently counted forgotten past `clients` keys
 * (the request limits' in-process store does the same).
 */
const localStore = (clients: number): RateLimitStore => {
  const windows = new Map<string, { n: number; until: number }>()
  return {
    incr: (key, windowMs): RateCount => {
      const now = Date.now()
      const w = windows.get(key)
      const next = w && w.until > now ? { n: w.n + 1, until: w.until } : { n: 1, until: now + windowMs }
      windows.delete(key)
      windows.set(key, next)
      if (windows.size > clients) windows.delete(windows.keys().next().value!)
      return { current: next.n, ttlMs: next.until - now }
    },
  }
}

/**
 * The sockets' per-IP limits: upgrades a window (in `store`, else in process) and sockets open at
 * once (in this instance). `admit` counts an upgrade and, when it passes, holds a place for it until
 * its raw socket closes (a handshake that fails closes it too). With `config` null nothing is limited.
 */
export const socketLimiter = (
  config: SocketLimitConfig | null,
  options: { readonly trustProxy: number; readonly clients: number; readonly store: RateLimitStore | null },
) => {
  const store = options.store ?? localStore(options.clients)
  const open = new Map<string, number>()
  const admit = async (req: IncomingMessage, socket: Duplex): Promise<SocketAdmission> => {
    if (!config) return { ok: true }
    const ip = clientIp(req, options.trustProxy)
    const counted = await store.incr(`sockets:ip:${ip}`, config.upgrades.windowS * 1000)
    if (counted.current > config.upgrades.max) {
      const after = Math.max(1, Math.ceil(counted.ttlMs / 1000))
      return { ok: false, refusal: { msg: tooManyMsg(after), retryAfterS: after } }
    }
    const held = open.get(ip) ?? 0
    if (held >= config.open) return { ok: false, refusal: { msg: tooManySocketsMsg(config.open), retryAfterS: null } }
    open.set(ip, held + 1)
    socket.once('close', () => {
      const n = (open.get(ip) ?? 1) - 1
      if (n <= 0) open.delete(ip)
      else open.set(ip, n)
    })
    return { ok: true }
  }
  return { admit }
}

/** Answers an upgrade with a plain HTTP/1.1 error (JSON `{ msg }`, as the API's) and closes the connection. */
export const refuseUpgrade = (socket: Duplex, refusal: SocketRefusal) => {
  const body = JSON.stringify({ msg: refusal.msg })
  const head = [
    refusal.status === 403 ? 'HTTP/1.1 403 Forbidden' : 'HTTP/1.1 429 Too Many Requests',
    ...(refusal.retryAfterS !== null ? [`Retry-After: ${refusal.retryAfterS}`] : []),
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ]
  socket.once('finish', () => socket.destroy())
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`)
}
