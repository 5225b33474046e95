import { randomUUID } from 'node:crypto'
import type { FastifyServerOptions } from 'fastify'
import type { LogLevel } from '../config/log-level.ts'

/**
 * The backend's log (Fastify's pino): one JSON object a line, each request's lines carrying its id
 * (`reqId`), the id returned in `X-Request-Id`, and no secret in any line.
 *
 * What is a secret here: the Authorization header (an access token), cookies, Telegram's init data
 * (it signs a user in for an hour), refresh tokens, the treasury's mnemonic, the bot token (it sits
 * in every Bot API URL). pino's `redact` removes them where they are fields; `scrub` removes them
 * where they are text (a URL's query, an error's message or stack).
 */

/** The header a request's id travels in, both ways: nginx sets it (`$request_id`), the backend answers it. */
export const REQUEST_ID_HEADER = 'x-request-id'

/** An id a proxy may hand in: short, plain characters; anything else is replaced by a new one. */
const HANDED_ID = /^[A-Za-z0-9._-]{8,64}$/

/** The request's id: the proxy's, when it is plain enough to log, else a new UUID. */
export const requestIdOf = (handed: string | string[] | undefined): string =>
  typeof handed === 'string' && HANDED_ID.test(handed) ? handed : randomUUID()

/** Text patterns of secrets, and what stands in for them. */
const SECRET_TEXT: ReadonlyArray<readonly [RegExp, string]> = [
  // The bot token, in a Bot API URL (…/bot<id>:<secret>/sendMessage) or alone.
  [/\bbot\d{5,}:[A-Za-z0-9_-]{20,}/g, 'bot[redacted]'],
  [/\b\d{5,}:[A-Za-z0-9_-]{30,}\b/g, '[redacted]'],
  // Query parameters that carry a credential.
  [/([?&](?:init_data|initData|tgWebAppData|token|access_token|refresh_token|hash)=)[^&#\s"]*/gi, '$1[redacted]'],
  [/\b(Bearer)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]'],
  // A JWT anywhere (an access token in a message).
  [/\beyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}/g, '[redacted]'],
]

/** `text` with every secret pattern replaced. */
export const scrub = (text: string): string => SECRET_TEXT.reduce((t, [re, to]) => t.replace(re, to), text)

/** Fields that are secrets wherever they appear in a logged object (pino's redact paths). */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  '*.init_data',
  '*.initData',
  '*.refresh_token',
  '*.refreshToken',
  '*.access_token',
  '*.accessToken',
  '*.mnemonic',
  '*.botToken',
  '*.jwtSecret',
] as const

interface RequestLike {
  readonly method?: string
  readonly url?: string
  readonly ip?: string
  readonly id?: string
  readonly routeOptions?: { readonly url?: string }
}

/** A request in the log: its method, its URL without credentials, the route's pattern and the client's address. */
const requestSerializer = (req: RequestLike): Record<string, unknown> => ({
  method: req.method,
  url: scrub(req.url ?? ''),
  ...(req.routeOptions?.url ? { route: req.routeOptions.url } : {}),
  remoteAddress: req.ip,
})

const errorSerializer = (e: unknown): { type: string; message: string; stack: string; [key: string]: unknown } => {
  if (!(e instanceof Error)) return { type: typeof e, message: scrub(String(e)), stack: '' }
  const code = (e as { code?: unknown }).code
  const statusCode = (e as { statusCode?: unknown }).statusCode
  return {
    type: e.name,
    message: scrub(e.message),
    stack: scrub(e.stack ?? ''),
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof statusCode === 'number' ? { statusCode } : {}),
  }
}

/** Where log lines go: stdout by default; a test hands a stream of its own. */
export interface LogDestination {
  write(line: string): void
}

/** The log a backend's Fastify is built with: `false` (off), or pino at `level` with the secrets kept out. */
export const fastifyLogOptions = (
  logger: false | { readonly level: LogLevel; readonly destination?: LogDestination },
): Pick<FastifyServerOptions, 'logger' | 'genReqId'> => ({
  logger: logger
    ? {
        level: logger.level,
        ...(logger.destination ? { stream: logger.destination } : {}),
        redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
        serializers: { req: requestSerializer, err: errorSerializer },
      }
    : false,
  // Its lines carry it as `reqId` (Fastify's label).
  genReqId: (req) => requestIdOf(req.headers[REQUEST_ID_HEADER]),
})
