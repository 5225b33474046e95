import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { ServerContext } from '../context.ts'
import { settleUser } from '../domain/positions.ts'
import { referralsOf, userRow } from '../domain/users.ts'
import { userWire } from '../http/wire-format.ts'

export const userRoutes = (app: FastifyInstance, ctx: ServerContext) => {
  app.get('/user/me', async (req) => {
    settleUser(ctx, req.userId)
    return userWire(ctx, userRow(ctx, req.userId))
  })

  app.get('/user/referrals', async (req) => referralsOf(ctx, req.userId))

  app.post('/user/share-message', async () => ({ inline_message_id: randomBytes(12).toString('base64url') }))
}
