import type { FastifyInstance } from 'fastify'
import type { ServerContext } from '../domain/context.ts'
import { telegramUserFrom } from '../auth/init-data.ts'
import { issueTokenPair, rotateRefresh, verifyAccessToken } from '../auth/tokens.ts'
import { registerUser } from '../domain/users.ts'
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
}
