import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'

/**
 * An answer given before the request's body has arrived (413 on its Content-Length, or a 401, 429 or
 * 503 from the hooks) must reach the client: closing the connection with the body unread makes the
 * kernel reset it, and the client sees "Network Error" instead of the answer.
 *
 * So such an answer keeps the connection open and the server reads and discards the rest of the body,
 * up to `boundBytes`; a client that sends more is cut off (the reset is its own doing then). A request
 * with `Expect: 100-continue` whose Content-Length is over `bodyLimit` is answered 413 without the
 * 100 Continue: the client never sends the body, and that answer closes the connection.
 */
export const answerBeforeUnreadBodies = (app: FastifyInstance, bodyLimit: number, boundBytes: number): void => {
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
    // Keep-alive (Fastify asks to close after a body it refused): the connection lives until the body is read.
    reply.removeHeader('connection')
    let discarded = 0
    raw.removeAllListeners('data')
    raw.on('data', (chunk: Buffer) => {
      discarded += chunk.length
      if (discarded > boundBytes) raw.socket.destroy()
    })
    raw.resume()
    return payload
  })
}
