import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

/** How long and how much a lingering close reads and discards after its answer, before it closes anyway. */
export interface LingerBounds {
  readonly bytes: number
  readonly ms: number
}

/**
 * nginx's lingering close. Closing a socket with unread bytes, or while the client is still sending,
 * makes the kernel answer with a reset, and a reset can discard the answer before the client reads
 * it (the client sees "Network Error"). So: half-close the write side (FIN after the answer), go on
 * reading and discarding what is in flight, and close once the client closes its side, or after
 * `bounds`. A client that sends more than that is cut off; the reset is then its own doing.
 *
 * Returns what to call with the size of each piece read meanwhile (the request's body: Node's HTTP
 * parser keeps reading the socket, and a 'data' listener on the socket would take that over).
 */
export const lingeringClose = (socket: Socket, bounds: LingerBounds): ((bytes: number) => void) => {
  socket.end()
  const timer = setTimeout(() => socket.destroy(), bounds.ms)
  timer.unref()
  socket.once('close', () => clearTimeout(timer))
  let read = 0
  return (bytes) => {
    read += bytes
    if (read > bounds.bytes) socket.destroy()
  }
}

/** Reads and drops the rest of a request's body. */
const discardBody = (raw: IncomingMessage, onChunk: (chunk: Buffer) => void = () => undefined): void => {
  raw.removeAllListeners('data')
  raw.on('data', onChunk)
  raw.resume()
}

/**
 * An answer given before the request's body has arrived must reach the client.
 *
 * A 413 (the body is over its route's `bodyLimit`: on its Content-Length, or once a chunked body
 * passes it) says `Connection: close`, and the connection then closes with a lingering close
 * (`linger`), as nginx does. Any other early answer (a 401, 429 or 503 from the hooks) keeps the
 * connection: the server reads and discards the rest of the body, and the connection serves its next
 * request; a body that goes on past twice its route's limit gets a lingering close. A request with
 * `Expect: 100-continue` whose Content-Length is over its route's limit is answered 413 without the
 * 100 Continue: the client never sends the body, and that answer closes the connection.
 *
 * The route's limit is Fastify's own (`routeOptions.bodyLimit`, known once the request is routed).
 * The linger's bounds do not depend on the route: a client sending a large body to a route with a
 * small limit must still read its 413.
 */
export const answerBeforeUnreadBodies = (app: FastifyInstance, linger: LingerBounds): void => {
  const awaitingContinue = new WeakMap<IncomingMessage, ServerResponse>()
  const refusedBeforeContinue = new WeakSet<IncomingMessage>()

  app.server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    awaitingContinue.set(req, res)
    app.server.emit('request', req, res)
  })
  // The first hook of every request, routed or not: Continue, or (over the route's limit) no
  // Continue, and Fastify answers the oversized body with its 413 on Content-Length, before reading any.
  app.addHook('onRequest', (req, _reply, done) => {
    const res = awaitingContinue.get(req.raw)
    if (res) {
      awaitingContinue.delete(req.raw)
      if (Number(req.headers['content-length']) > req.routeOptions.bodyLimit) refusedBeforeContinue.add(req.raw)
      else res.writeContinue()
    }
    done()
  })

  // A callback hook, not an async one: every answer passes here, and nearly all leave at once.
  app.addHook('onSend', (req, reply, payload, done) => {
    const raw = req.raw
    if (!(raw.complete || raw.readableEnded || refusedBeforeContinue.has(raw))) answerUnreadBody(req, reply)
    done(null, payload)
  })

  /** An answer before its body was read: the body is read and dropped, and the connection kept or closed for it. */
  const answerUnreadBody = (req: FastifyRequest, reply: FastifyReply) => {
    const raw = req.raw
    const socket = raw.socket
    let lingering: ((bytes: number) => void) | null = null
    if (reply.statusCode === 413) {
      reply.header('connection', 'close')
      // Node closes a `Connection: close` connection with destroySoon once the answer is written:
      // this connection lingers instead.
      socket.destroySoon = () => {
        lingering ??= lingeringClose(socket, linger)
      }
      discardBody(raw, (chunk) => lingering?.(chunk.length))
      return
    }
    // Keep-alive (Fastify asks to close after a body it refused): the connection lives until the body is read.
    reply.removeHeader('connection')
    const drainBytes = 2 * req.routeOptions.bodyLimit
    let discarded = 0
    discardBody(raw, (chunk) => {
      if (lingering) return lingering(chunk.length)
      discarded += chunk.length
      if (discarded > drainBytes) lingering = lingeringClose(socket, linger)
    })
  }
}
