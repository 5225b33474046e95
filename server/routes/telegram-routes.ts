import type { FastifyInstance } from 'fastify'
import type { ServerContext } from '../domain/context.ts'
import { telegramUserFrom } from '../auth/init-data.ts'
import { refreshMembership } from '../domain/membership.ts'
import { setBotBlocked } from '../domain/outbox.ts'
import { userIdByTelegram } from '../domain/users.ts'
import { bodyFields, idField } from '../http/params.ts'
import { httpError } from '../http/errors.ts'
import { cancelWaitingSale } from '../domain/sale-payouts.ts'
import { withdrawalWire } from '../http/wire-format.ts'

/** Where the bot saw a user's membership change: the community chat, or the user's chat with the bot. */
const CHATS = ['community', 'bot'] as const
/** A ChatMember's status, as the Bot API names them. */
const STATUSES = ['creator', 'administrator', 'member', 'restricted', 'left', 'kicked'] as const

export const CHAT_MEMBER_PATH = '/api/telegram/chat-member'
export const SALE_CANCEL_PATH = '/api/telegram/sale-cancel'
export const NO_SUCH_SALE_MSG = 'No such sale of yours'

/**
 * `POST /api/telegram/chat-member`: what the bot learns from Telegram's `chat_member` and
 * `my_chat_member` updates, told to the backend (the bot receives the updates; the backend keeps the
 * state). Body `{ init_data, chat, status }`. The init data, signed with the bot's token as a sign-in's
 * is, says which user; no account is made for a Telegram user who has none (404).
 * - `chat: 'community'`: the backend asks getChatMember itself (refreshMembership): the update says
 *   when to ask, not what the answer is. A user who left is no longer a member at once, not at their
 *   next sign-in.
 * - `chat: 'bot'`: `kicked` records that the user blocked the bot (its messages are skipped), any
 *   other status that they unblocked it.
 */
export const telegramRoutes = (app: FastifyInstance, ctx: ServerContext) => {
  app.post('/telegram/chat-member', async (req) => {
    const body = bodyFields(req.body)
    const tg = telegramUserFrom(body.init_data, ctx.config.botToken, ctx.now(), ctx.config.initDataMaxAgeS)
    const chat = body.chat
    const status = body.status
    if (typeof chat !== 'string' || !(CHATS as readonly string[]).includes(chat)) throw httpError(422, `chat must be one of ${CHATS.join(', ')}`)
    if (typeof status !== 'string' || !(STATUSES as readonly string[]).includes(status)) throw httpError(422, `status must be one of ${STATUSES.join(', ')}`)
    const userId = await userIdByTelegram(ctx, tg.id)
    if (userId === null) throw httpError(404, 'No AXIOM account for this Telegram user')
    if (chat === 'community') return { community: await refreshMembership(ctx, userId) }
    const blocked = status === 'kicked'
    await setBotBlocked(ctx, userId, blocked)
    return { bot_blocked: blocked }
  })

  /**
   * `POST /api/telegram/sale-cancel`: the user pressed the Cancel button of the bot's message about a
   * sale still waiting its cooling period (a callback_query the bot receives). Body `{ init_data,
   * sale_id }`; the init data, signed with the bot's token for the callback's `from`, says who
   * pressed; callback data is the client's word, so the sale must be that user's own (404
   * otherwise, as for a sale that does not exist). `{ outcome: 'cancelled', sale }`: the sale is
   * `failed` and its tokens are back (cancelWaitingSale); `already_cancelled` (a second press) or
   * `not_waiting` (its wait is over, it is queued or paid): nothing changed.
   */
  app.post('/telegram/sale-cancel', async (req) => {
    const body = bodyFields(req.body)
    const tg = telegramUserFrom(body.init_data, ctx.config.botToken, ctx.now(), ctx.config.initDataMaxAgeS)
    const saleId = idField(body, 'sale_id')
    const userId = await userIdByTelegram(ctx, tg.id)
    if (userId === null) throw httpError(404, NO_SUCH_SALE_MSG)
    const result = await cancelWaitingSale(ctx, userId, saleId)
    if (result.outcome === 'not_found') throw httpError(404, NO_SUCH_SALE_MSG)
    return { outcome: result.outcome, sale: withdrawalWire(result.sale) }
  })
}
