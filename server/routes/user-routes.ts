import type { FastifyInstance } from 'fastify'
import type { ServerContext } from '../context.ts'
import { settledUserRow } from '../domain/positions.ts'
import { referralsOf } from '../domain/users.ts'
import { collectiveBonus } from '../domain/settings.ts'
import { referralWire, userWire } from '../http/wire-format.ts'
import { recheckMembershipIfDue } from '../telegram/membership.ts'
import { prepareShareMessage } from '../telegram/share-message.ts'

export const userRoutes = (app: FastifyInstance, ctx: ServerContext) => {
  app.get('/user/me', async (req) => {
    const [user, bonus] = await Promise.all([settledUserRow(ctx, req.userId), collectiveBonus(ctx)])
    // While the user is not a member, Telegram is asked again (at most every 10 s): Done → reload lifts the gate.
    const community = await recheckMembershipIfDue(ctx, req.userId, user.community !== 0n)
    return userWire({ ...user, community: community ? 1n : 0n }, bonus)
  })

  app.get('/user/referrals', async (req) => (await referralsOf(ctx, req.userId)).map(referralWire))

  app.post('/user/share-message', async (req) => prepareShareMessage(ctx, req.userId))
}
