import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { ServerContext } from '../domain/context.ts'
import { settledUserRow } from '../domain/positions.ts'
import { referralsOf } from '../domain/users.ts'
import { collectiveBonus } from '../domain/settings.ts'
import { referralWire, userWire } from '../http/wire-format.ts'

export const userRoutes = (app: FastifyInstance, ctx: ServerContext) => {
  app.get('/user/me', async (req) => {
    const [user, bonus] = await Promise.all([settledUserRow(ctx, req.userId), collectiveBonus(ctx)])
    return userWire(user, bonus)
  })

  app.get('/user/referrals', async (req) => (await referralsOf(ctx, req.userId)).map(referralWire))

  app.post('/user/share-message', async () => ({ inline_message_id: randomBytes(12).toString('base64url') }))
}
