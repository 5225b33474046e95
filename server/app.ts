import Fastify, { type FastifyBodyParser, type FastifyError, type FastifyInstance } from 'fastify'
import type { ServerContext } from './domain/context.ts'
import { verifyAccessToken } from './auth/tokens.ts'
import { isMaintenanceOn } from './domain/settings.ts'
import { authRoutes } from './routes/auth-routes.ts'
import { CHAT_MEMBER_PATH, SALE_CANCEL_PATH, telegramRoutes } from './routes/telegram-routes.ts'
import { farmingRoutes } from './routes/farming-routes.ts'
import { marketRoutes } from './routes/market-routes.ts'
import { mintRoutes } from './routes/mint-routes.ts'
import { stakingRoutes } from './routes/staking-routes.ts'
import { PHOTO_ROUTE, taskRoutes } from './routes/task-routes.ts'
import { userRoutes } from './routes/user-routes.ts'
import { walletRoutes } from './routes/wallet-routes.ts'
import { withdrawRoutes } from './routes/withdraw-routes.ts'
import { FILE_TOO_LARGE_MSG } from './domain/errors.ts'
import { domainAnswer } from './http/error-answers.ts'
import { httpError, isHttpError, MAINTENANCE_MSG } from './http/errors.ts'
import { rateLimiter } from './http/rate-limits.ts'
import { trustProxyHops } from './http/client-ip.ts'
import { databaseRateLimitStore } from './db/rate-limit-table.ts'
import { answerBeforeUnreadBodies } from './http/unread-bodies.ts'
import { fastifyLogOptions, REQUEST_ID_HEADER } from './http/request-log.ts'
import { answerClientError, answerFrameworkError, jsonBodyParser } from './http/wire-errors.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated user's internal id (set by the auth hook). */
    userId: bigint
  }
}

const MAINTENANCE_PATH = '/api/maintenance/'
/** The longest a connection lingers after an early answer (server/http/unread-bodies.ts). */
const LINGER_MS = 5_000
// The bot's chat-member reports and sale cancels prove the user with init data in the body, as a sign-in does.
const PUBLIC_PATHS = new Set([MAINTENANCE_PATH, '/api/auth/register', '/api/auth/refresh', CHAT_MEMBER_PATH, SALE_CANCEL_PATH])

/** The one route whose body is large: a task's photo, base64 in JSON (its limit is config.photoBodyLimitBytes). */
const PHOTO_PATH = `/api${PHOTO_ROUTE}`

export const bodyTooLargeMsg = (limit: number): string =>
  `The body is too large (at most ${limit % 1024 === 0 ? `${limit / 1024} KiB` : `${limit} bytes`})`

/** Whether `query` settles successfully within `ms` (a failure or no answer in time: false). */
const answersWithin = (query: Promise<unknown>, ms: number): Promise<boolean> => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms)
  })
  return Promise.race([query.then(() => true, () => false), late]).finally(() => clearTimeout(timer))
}

const bearerOf = (header: string | undefined): string => {
  const m = header ? /^Bearer\s+(\S+)$/i.exec(header) : null
  if (!m) throw httpError(401, 'Not authenticated')
  return m[1]!
}

/**
 * For a load balancer or an orchestrator: /health says the process answers (`health` is its body);
 * /ready that it can serve, its database answering (503 otherwise, so traffic goes to another
 * instance). Both answer HEAD too (a probe's cheapest ask): they have no effect. An api instance's
 * app and a worker's both carry them.
 */
export const registerProbes = (app: FastifyInstance, ctx: ServerContext, health: Record<string, string>): void => {
  app.route({ method: ['GET', 'HEAD'], url: '/health', handler: async () => health })
  app.route({
    method: ['GET', 'HEAD'],
    url: '/ready',
    handler: async (_req, reply) => {
      // A database that hangs (a stalled connection, a held lock) is as unready as one that refuses.
      const answered = await answersWithin(ctx.engine.one('SELECT 1 AS ok'), ctx.config.readyTimeoutMs)
      if (answered) return { status: 'ready', db: ctx.engine.dialect }
      return reply.code(503).send({ status: 'unavailable', msg: 'The database does not answer' })
    },
  })
}

/** The Fastify app with every §7 call under /api; sockets are attached to its server separately. */
export const buildApp = (ctx: ServerContext): FastifyInstance => {
  const { requestTimeoutMs } = ctx.config
  const app = Fastify({
    // JSON lines with the request's id and no secret (server/http/request-log.ts).
    ...fastifyLogOptions(ctx.config.logger),
    bodyLimit: ctx.config.bodyLimitBytes,
    trustProxy: trustProxyHops(ctx.config.trustProxy),
    routerOptions: { ignoreTrailingSlash: true },
    // No HEAD route is made of a GET: a GET with an effect (a link's activation) must not run for a
    // HEAD outside its own rules. /health and /ready answer HEAD themselves.
    exposeHeadRoutes: false,
    // A request (headers and body) must arrive within requestTimeoutMs of its first byte, or of the
    // connection when it sends none, else 408; Node checks the deadline on an interval. A keep-alive
    // connection between requests is Fastify's keepAliveTimeout's (72 s); upgraded sockets are neither's.
    requestTimeout: requestTimeoutMs,
    http: {
      requestTimeout: requestTimeoutMs,
      headersTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, Math.max(10, Math.floor(requestTimeoutMs / 4))),
    },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  })
  app.decorateRequest('userId', 0n)
  // Every answer names its request: the id its log lines carry, for a user's report or nginx's log.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header(REQUEST_ID_HEADER, req.id)
    done()
  })
  // An early answer's connection reads what is in flight: up to 4× the photo's limit (a phone's
  // biggest photo, base64) within 5 s, whichever route it was sent to, so the client reads the answer
  // rather than a reset.
  answerBeforeUnreadBodies(app, { bytes: 4 * Math.max(ctx.config.photoBodyLimitBytes, ctx.config.bodyLimitBytes), ms: LINGER_MS })

  app.addContentTypeParser('application/json', { parseAs: 'string' }, jsonBodyParser(app.getDefaultJsonParser('error', 'error')))
  // Any other content type reaches the routes as text, where it fails field validation with a 422;
  // an empty one (or only whitespace) is no payload, like an absent body.
  const asText: FastifyBodyParser<string> = (_req, body, done) => done(null, body.trim() === '' ? undefined : body)
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, asText)
  app.addContentTypeParser('*', { parseAs: 'string' }, asText)

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const refused = domainAnswer(err)
    if (refused) return reply.code(refused.status).send({ msg: refused.msg })
    if (isHttpError(err)) return reply.code(err.statusCode).send({ msg: err.message })
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return reply.code(413).send({ msg: req.routeOptions.url === PHOTO_PATH ? FILE_TOO_LARGE_MSG : bodyTooLargeMsg(req.routeOptions.bodyLimit) })
    const status = err.statusCode ?? 500
    if (status >= 400 && status < 500) return reply.code(status === 415 ? 400 : status).send({ msg: err.message })
    req.log.error(err)
    return reply.code(500).send({ msg: 'Internal server error' })
  })
  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ msg: 'Not found' }))
  // On PostgreSQL the instances count in the database, so a client's budget is one across them.
  // The general rule is counted here and flushed to the table every 250 ms (server/db/rate-limit-table.ts).
  const shared = !ctx.config.rateLimitStore && ctx.engine.dialect === 'postgres' ? databaseRateLimitStore(ctx.engine) : null
  if (shared) app.addHook('onClose', () => shared.flush())
  const store = ctx.config.rateLimitStore ?? shared
  const limit = rateLimiter(app, ctx.config.rateLimits, store, ctx.config.trustProxy)

  registerProbes(app, ctx, { status: 'ok' })

  app.register(
    async (api) => {
      // Before the body is read: maintenance, then who is asking, then the limits (per user when
      // signed in, else per IP; a request whose token is refused counts against its IP).
      api.addHook('onRequest', async (req, reply) => {
        const path = req.routeOptions.url ?? ''
        if (path === MAINTENANCE_PATH || path === '/api/maintenance') return limit(req, reply)
        if (await isMaintenanceOn(ctx)) throw httpError(503, MAINTENANCE_MSG)
        if (!PUBLIC_PATHS.has(path) && req.routeOptions.url !== undefined) {
          try {
            req.userId = await verifyAccessToken(ctx, bearerOf(req.headers.authorization))
          } catch (e) {
            await limit(req, reply)
            throw e
          }
        }
        await limit(req, reply)
      })
      for (const routes of [authRoutes, telegramRoutes, userRoutes, walletRoutes, mintRoutes, stakingRoutes, farmingRoutes, withdrawRoutes, taskRoutes, marketRoutes])
        routes(api, ctx)
    },
    { prefix: '/api' },
  )
  return app
}
