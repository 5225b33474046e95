import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { ServerContext } from '../context.ts'
import { settledUserRow } from '../domain/positions.ts'
import { referralsOf } from '../domain/users.ts'
import { collectiveBonus } from '../domain/settings.ts'
import { referralWire, userWire } from '../http/wire-format.ts'
import { paging, queryFields } from '../http/params.ts'

export const userRoutes = (app: FastifyInstance, ctx: ServerContext) => {
  app.get('/user/me', async (req) => {
    const [user, bonus] = await Promise.all([settledUserRow(ctx, req.userId), collectiveBonus(ctx)])
    return userWire(user, bonus)
  })

  app.get('/user/referrals', async (req) => {
    const { page, limit, offset } = paging(queryFields(req.query))
    const { rows, total } = await referralsOf(ctx, req.userId, limit, offset)
    return { items: rows.map(referralWire), total, page, limit }
  })

  app.post('/user/share-message', async () => ({ inline_message_id: randomBytes(12).toString('base64url') }))
}
