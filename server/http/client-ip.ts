import type { IncomingMessage } from 'node:http'

/**
 * The client's IP as the per-IP limits count it, for a request and for a socket's upgrade alike,
 * with `trustProxy` the number of proxies in front of the backend that it trusts (AXIOM_TRUST_PROXY):
 *
 * - 0: the connection's peer; X-Forwarded-For is not read.
 * - n: the n-th address of X-Forwarded-For counted from its right. Each trusted proxy appends the
 *   address it saw to the header's end, so the last entry is what the nearest proxy wrote (its peer),
 *   the one before it what the proxy before that wrote, and so on; what a client wrote itself lies
 *   further left and is never reached. With fewer entries than n, the leftmost one.
 *
 * Fastify's `request.ip` reads the same address: the backend gives it `trustProxyHops(n)`.
 * Entries are split on commas, the blanks around them trimmed, empty ones skipped.
 */
export const clientIp = (req: IncomingMessage, trustProxy: number): string => {
  const peer = req.socket.remoteAddress ?? ''
  if (trustProxy <= 0) return peer
  const header = req.headers['x-forwarded-for']
  // Node joins repeated X-Forwarded-For lines with ", " into one string.
  if (typeof header !== 'string') return peer
  // Trimmed as proxy-addr trims (a lone entry of any whitespace, a listed one of spaces and tabs), so
  // that request.ip and this never disagree.
  const entries = header.includes(',') ? header.split(',').map((e) => e.replace(/^[ \t]+|[ \t]+$/g, '')) : [header.trim()]
  const listed = entries.filter((e) => e !== '')
  if (listed.length === 0) return peer
  return listed[Math.max(0, listed.length - trustProxy)]!
}

/**
 * Fastify's `trustProxy` for `hops` trusted proxies. A number given to Fastify 5 itself trusts no
 * hop at all (it cannot tell the nearest peer is a proxy), so the hops are given as proxy-addr's
 * trust function: the peer and the next hops-1 addresses (read from the right) are proxies.
 */
export const trustProxyHops = (hops: number): false | ((address: string, hop: number) => boolean) =>
  hops > 0 ? (_address, hop) => hop < hops : false

/**
 * AXIOM_TRUST_PROXY: unset, empty or `0` trusts no proxy; a whole number is the count of trusted
 * proxies in front (`1` for the shipped nginx). Anything else is refused rather than guessed at.
 */
export const trustProxyFromEnv = (value: string | undefined): number => {
  if (value === undefined || value.trim() === '') return 0
  const v = value.trim()
  if (!/^\d{1,2}$/.test(v)) throw new Error('AXIOM_TRUST_PROXY must be the number of proxies in front of the backend (0, 1, 2, …)')
  return Number(v)
}
