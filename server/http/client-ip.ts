import type { IncomingMessage } from 'node:http'

/**
 * The client's IP as the per-IP limits count it, for a request and for a socket's upgrade alike.
 * Without trustProxy, the connection's peer. With it (AXIOM_TRUST_PROXY=1, every hop trusted, as
 * Fastify's `trustProxy: true`), the first address of X-Forwarded-For, the one the outermost proxy saw.
 */
export const clientIp = (req: IncomingMessage, trustProxy: boolean): string => {
  const peer = req.socket.remoteAddress ?? ''
  if (!trustProxy) return peer
  const header = req.headers['x-forwarded-for']
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')[0]!.trim()
  return forwarded === '' ? peer : forwarded
}
