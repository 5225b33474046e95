import type { FastifyInstance } from 'fastify'
import type { ServerContext } from '../domain/context.ts'
import { telegramUserFrom } from '../auth/init-data.ts'
import { endSession, issueTokenPair, rotateRefresh, verifyAccessToken, verifyAccessTokenClaims } from '../auth/tokens.ts'
import { registerUser } from '../domain/users.ts'
import { httpError } from '../http/errors.ts'
import { bodyFields } from '../http/params.ts'
import { refreshMembership } from '../domain/membership.ts'

export const authRoutes = (app: FastifyInstance, ctx: ServerContext) => {
  app.post('/auth/register', async (req) => {
    const body = bodyFields(req.body)
    const tg = telegramUserFrom(body.init_data, ctx.config.botToken, ctx.now(), ctx.config.initDataMaxAgeS)
    const refCode = typeof body.ref_code === 'string' && body.ref_code.length <= 64 ? body.ref_code : null
    const userId = await registerUser(ctx, tg, refCode)
    // Every sign-in asks Telegram about the community; a failed check keeps the last answer.
    await refreshMembership(ctx, userId)
    return issueTokenPair(ctx, userId)
  })

  app.post('/auth/refresh', async (req) => {
    const body = bodyFields(req.body)
    const pair = await rotateRefresh(ctx, body.refresh_token ?? body.refresh)
    await refreshMembership(ctx, await verifyAccessToken(ctx, pair.token))
    return pair
  })

  // Ends the session of the bearer token (the app's hook has checked it): its refresh token, in the body
  // as /auth/refresh takes it, must be of the same session. Every token of the session stops at once.
  app.post('/auth/logout', async (req) => {
    const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')
    if (!m) throw httpError(401, 'Not authenticated')
    const { userId, family } = await verifyAccessTokenClaims(ctx, m[1]!)
    const body = bodyFields(req.body)
    await endSession(ctx, userId, family, body.refresh_token ?? body.refresh)
    return {}
  })
}
