import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'

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
 * A 413 (the body is over `bodyLimit`: on its Content-Length, or once a chunked body passes it) says
 * `Connection: close`, and the connection then closes with a lingering close (`linger`), as nginx
 * does. Any other early answer (a 401, 429 or 503 from the hooks) keeps the connection: the server
 * reads and discards the rest of the body, and the connection serves its next request; a body that
 * goes on past `drainBytes` gets a lingering close. A request with `Expect: 100-continue` whose
 * Content-Length is over `bodyLimit` is answered 413 without the 100 Continue: the client never
 * sends the body, and that answer closes the connection.
 */
export const answerBeforeUnreadBodies = (app: FastifyInstance, bodyLimit: number, drainBytes: number, linger: LingerBounds): void => {
  const refusedBeforeContinue = new WeakSet<IncomingMessage>()

  app.server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (Number(req.headers['content-length']) > bodyLimit) refusedBeforeContinue.add(req)
    else res.writeContinue()
    // Fastify answers the oversized one with its 413 on Content-Length, before any body is read.
    app.server.emit('request', req, res)
  })

  app.addHook('onSend', async (req, reply, payload) => {
    const raw = req.raw
    if (raw.complete || raw.readableEnded || refusedBeforeContinue.has(raw)) return payload
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
      return payload
    }
    // Keep-alive (Fastify asks to close after a body it refused): the connection lives until the body is read.
    reply.removeHeader('connection')
    let discarded = 0
    discardBody(raw, (chunk) => {
      if (lingering) return lingering(chunk.length)
      discarded += chunk.length
      if (discarded > drainBytes) lingering = lingeringClose(socket, linger)
    })
    return payload
  })
}
