import Fastify, { type FastifyError, type FastifyInstance } from 'fastify'
import type { ServerContext } from '../context.ts'
import { verifyAccessToken } from '../auth/tokens.ts'
import { isMaintenanceOn } from '../domain/settings.ts'
import { authRoutes } from '../routes/auth-routes.ts'
import { farmingRoutes } from '../routes/farming-routes.ts'
import { marketRoutes } from '../routes/market-routes.ts'
import { mintRoutes } from '../routes/mint-routes.ts'
import { stakingRoutes } from '../routes/staking-routes.ts'
import { taskRoutes } from '../routes/task-routes.ts'
import { userRoutes } from '../routes/user-routes.ts'
import { walletRoutes } from '../routes/wallet-routes.ts'
import { withdrawRoutes } from '../routes/withdraw-routes.ts'
import { FILE_TOO_LARGE, httpError, isHttpError, MAINTENANCE_MSG } from './errors.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated user's internal id (set by the auth hook). */
    userId: bigint
  }
}

const MAINTENANCE_PATH = '/api/maintenance/'
const PUBLIC_PATHS = new Set([MAINTENANCE_PATH, '/api/auth/register', '/api/auth/refresh'])

const bearerOf = (header: string | undefined): string => {
  const m = header ? /^Bearer\s+(\S+)$/i.exec(header) : null
  if (!m) throw httpError(401, 'Not authenticated')
  return m[1]!
}

/** The Fastify app with every §7 call under /api; sockets are attached to its server separately. */
export const buildApp = (ctx: ServerContext): FastifyInstance => {
  const app = Fastify({
    logger: ctx.config.logger,
    bodyLimit: ctx.config.bodyLimitBytes,
    routerOptions: { ignoreTrailingSlash: true },
  })
  app.decorateRequest('userId', 0n)

  // Any other content type reaches the routes as text, where it fails field validation with a 422.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body))

  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (isHttpError(err)) return reply.code(err.statusCode).send({ msg: err.message })
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.code(413).send({ msg: FILE_TOO_LARGE })
    const status = err.statusCode ?? 500
    if (status >= 400 && status < 500) return reply.code(status === 415 ? 400 : status).send({ msg: err.message })
    req.log.error(err)
    return reply.code(500).send({ msg: 'Internal server error' })
  })
  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ msg: 'Not found' }))

  app.register(
    async (api) => {
      api.addHook('onRequest', async (req) => {
        const path = req.routeOptions.url ?? ''
        if (path === MAINTENANCE_PATH || path === '/api/maintenance') return
        if (isMaintenanceOn(ctx.db)) throw httpError(503, MAINTENANCE_MSG)
        if (PUBLIC_PATHS.has(path) || req.routeOptions.url === undefined) return
        req.userId = await verifyAccessToken(ctx, bearerOf(req.headers.authorization))
      })
      for (const routes of [authRoutes, userRoutes, walletRoutes, mintRoutes, stakingRoutes, farmingRoutes, withdrawRoutes, taskRoutes, marketRoutes])
        routes(api, ctx)
    },
    { prefix: '/api' },
  )
  return app
}
