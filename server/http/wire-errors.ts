import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyBodyParser, FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { httpError } from './errors.ts'

/**
 * The answers Fastify and Node give before a route runs (a bad URL, a body that is no JSON, headers
 * too large, a request that takes too long to arrive), in the API's own shape: JSON `{ msg }`.
 */

/** Arrays and objects may nest this deep in a JSON body; every call's payload needs 3 at most. */
export const MAX_JSON_DEPTH = 32
export const TOO_DEEP_MSG = `The body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`
export const INVALID_JSON_MSG = 'The body is not valid JSON'
export const BAD_URL_MSG = 'The URL is not validly encoded'
export const URL_TOO_LONG_MSG = 'The URL is too long'
export const HEADERS_TOO_LARGE_MSG = 'The request headers are too large (at most 16 KiB)'
export const REQUEST_TIMEOUT_MSG = 'The request took too long to arrive'
export const BAD_REQUEST_MSG = 'The request is not valid HTTP'

/**
 * Does JSON text nest arrays and objects deeper than `max`? One pass over the text, skipping strings
 * (with their escapes), without parsing: a body can be refused before anything recurses over it.
 */
export const jsonDepthExceeds = (text: string, max: number): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return false
}

/**
 * The JSON body parser: an empty body (or only whitespace) is no payload, as many clients send
 * `Content-Type: application/json` on a bodiless POST; deeper nesting than MAX_JSON_DEPTH is a 400;
 * the rest goes to Fastify's own parser (prototype poisoning refused), a failure being a 400.
 */
export const jsonBodyParser =
  (fastifyJson: FastifyBodyParser<string>): FastifyBodyParser<string> =>
  (req, body, done) => {
    if (body.trim() === '') return done(null, undefined)
    if (jsonDepthExceeds(body, MAX_JSON_DEPTH)) return done(httpError(400, TOO_DEEP_MSG), undefined)
    fastifyJson(req, body, (err, value) => (err ? done(httpError(400, INVALID_JSON_MSG), undefined) : done(null, value)))
  }

/** Fastify's errors before routing (`frameworkErrors`): a badly encoded URL, an over-long path parameter. */
export const answerFrameworkError = (err: FastifyError, _req: FastifyRequest, reply: FastifyReply) => {
  if (err.code === 'FST_ERR_BAD_URL') return reply.code(400).send({ msg: BAD_URL_MSG })
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return reply.code(414).send({ msg: URL_TOO_LONG_MSG })
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500
  return reply.code(status).send({ msg: status === 500 ? 'Internal server error' : err.message })
}

const rawAnswer = (status: number, msg: string): string => {
  const body = JSON.stringify({ msg })
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n')
}

/** How long a connection that failed to parse may still drain what its client sends, before it is closed. */
const LINGER_MS = 1000

type ClientError = Error & { readonly code?: string }

/**
 * Errors Node raises on the connection itself (`clientErrorHandler`), answered on the raw socket
 * unless a response already started there: 408 when the request did not fully arrive within the
 * request timeout, 431 when the request line and headers exceed 16 KiB, else 400.
 */
export const answerClientError = (err: ClientError, socket: Socket): void => {
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  // Already answered; the connection is closing.
  if (socket.writableEnded) return
  const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
  const [status, msg] = timedOut ? [408, REQUEST_TIMEOUT_MSG] : err.code === 'HPE_HEADER_OVERFLOW' ? [431, HEADERS_TOO_LARGE_MSG] : [400, BAD_REQUEST_MSG]
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (socket.writable && !inFlight?.headersSent) socket.write(rawAnswer(status, msg))
  if (timedOut) {
    // The parser is still reading this request: it must never complete once answered.
    socket.destroy()
    return
  }
  // The parser stopped at the error. Close after the answer, and let the rest of what the client
  // was sending drain for a moment, so the client reads the answer instead of a reset.
  socket.end()
  setTimeout(() => socket.destroy(), LINGER_MS).unref()
}
