import type { FastifyInstance } from 'fastify'
import type { ServerContext } from '../domain/context.ts'
import { settledMe } from '../domain/positions.ts'
import { referralsOf } from '../domain/users.ts'
import { referralWire, userWire } from '../http/wire-format.ts'
import { recheckMembershipIfDue } from '../domain/membership.ts'
import { prepareShareMessage } from '../telegram/share-message.ts'
import { setNotifications } from '../domain/outbox.ts'
import { bodyFields, paging, queryFields } from '../http/params.ts'
import { httpError } from '../http/errors.ts'

const amount = { type: 'string' } as const
/** The answer's shape, which Fastify compiles into its serializer (fast-json-stringify): the answer every screen asks for most. */
const USER_ME_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['ref', 'community_participation', 'balance_token', 'task_balance', 'referral_balance', 'hold_bonus', 'investment_bonus', 'locked_balance', 'collective_bonus', 'ref_code', 'wallet_address'],
  properties: {
    ref: { type: 'object', required: ['level', 'turnover'], properties: { level: { type: 'integer' }, turnover: amount } },
    community_participation: { type: 'boolean' },
    balance_token: amount,
    task_balance: amount,
    referral_balance: amount,
    hold_bonus: amount,
    investment_bonus: amount,
    locked_balance: amount,
    collective_bonus: amount,
    ref_code: { type: 'string' },
    wallet_address: { type: ['string', 'null'] },
  },
} as const

export const userRoutes = (app: FastifyInstance, ctx: ServerContext) => {
  app.get('/user/me', { schema: { response: { 200: USER_ME_SCHEMA } } }, async (req) => {
    const { user, collectiveBonus: bonus } = await settledMe(ctx, req.userId)
    // While the user is not a member, Telegram is asked again (at most every 10 s): Done → reload lifts the gate.
    const community = await recheckMembershipIfDue(ctx, req.userId, user.community !== 0n)
    return userWire({ ...user, community: community ? 1n : 0n }, bonus)
  })

  app.get('/user/referrals', async (req) => {
    const { page, limit, offset } = paging(queryFields(req.query))
    const { rows, total } = await referralsOf(ctx, req.userId, limit, offset)
    return { items: rows.map(referralWire), total, page, limit }
  })

  app.post('/user/share-message', async (req) => prepareShareMessage(ctx, req.userId))

  // The bot's /notifications on|off: whether the backend writes to this user in the bot's chat.
  app.post('/user/notifications', async (req) => {
    const enabled = bodyFields(req.body).enabled
    if (typeof enabled !== 'boolean') throw httpError(422, 'enabled must be true or false')
    await setNotifications(ctx, req.userId, enabled)
    return { notifications: enabled }
  })
}
