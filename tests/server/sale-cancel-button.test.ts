import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { botConfigFromEnv } from '../../bot/config.ts'
import { runBot, type RunningBot } from '../../bot/run.ts'
import { outgoingPayments, queueDueSales } from '../../server/chain/payment-rows.ts'
import { big, getRow, str } from '../../server/db/sql.ts'
import { defaultTelegramSettings, DEV_BOT_TOKEN } from '../../server/main.ts'
import { ok, startBotApiFake, type BotApiFake, type FakeCall } from '../support/bot-api-fake.ts'
import { call, signInitData, SOME_ADDRESS, startTestServer, type Session, type TestServer } from './support.ts'

/**
 * The Cancel button of the bot's message about a sale waiting its cooling period: the product's bot
 * (bot/, on a webhook) receives the callback_query, signs init data for the one who pressed and asks
 * the backend (POST /api/telegram/sale-cancel), which cancels only that user's own sale and only while
 * it waits, giving the tokens back as an operator's reject does; the bot answers the query and edits
 * the message. Updates are hand-written envelopes (core.telegram.org/bots/api: Update, CallbackQuery,
 * Message, User); what the bot sends is read as the raw Bot API request the fake Telegram receives.
 */
const DELAY = 3_600
const LINK = 'https://t.me/axiom_dev_bot/app'
const SECRET = 'webhook-secret-sale-cancel-01'
const BOT_USER = { id: Number(DEV_BOT_TOKEN.split(':')[0]), is_bot: true, first_name: 'AXIOM', username: 'axiom_dev_bot' }

let fake: BotApiFake
let t: TestServer
let bot: RunningBot
let nextMessageId = 100
/** The message_id the fake Telegram gave each sendMessage (by its request's params). */
const sentIds = new WeakMap<object, number>()
let nextUpdate = 700_000

beforeAll(async () => {
  fake = await startBotApiFake(DEV_BOT_TOKEN)
  fake.on('getMe', () => ok({ ...BOT_USER, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: true }))
  for (const m of ['setMyCommands', 'setChatMenuButton', 'setWebhook', 'deleteWebhook', 'answerCallbackQuery']) fake.on(m, () => ok(true))
  fake.on('getChatMember', (p) => ok({ status: 'member', user: { id: p.user_id, is_bot: false, first_name: 'x' } }))
  const message = (p: Record<string, unknown>) => {
    const messageId = typeof p.message_id === 'number' ? p.message_id : nextMessageId++
    sentIds.set(p, messageId)
    return ok({ message_id: messageId, from: BOT_USER, date: t.clock.now, chat: { id: p.chat_id, type: 'private', first_name: 'x' }, text: p.text ?? '', ...(p.reply_markup ? { reply_markup: p.reply_markup } : {}) })
  }
  for (const m of ['sendMessage', 'editMessageText', 'editMessageReplyMarkup']) fake.on(m, message)
  t = await startTestServer({ newAddressDelayS: DELAY, telegram: { ...defaultTelegramSettings(), apiRoot: fake.url, miniAppLink: LINK } })
  const config = botConfigFromEnv({ BOT_TOKEN: DEV_BOT_TOKEN, TELEGRAM_API_ROOT: fake.url, AXIOM_API: t.url, AXIOM_MINI_APP_LINK: LINK })
  bot = await runBot({ ...config, webhook: { url: 'https://bot.example.com/hook', secret: SECRET, port: 0, host: '127.0.0.1' } }, { nowS: () => t.clock.now })
})
afterAll(async () => {
  await bot?.stop()
  await t?.close()
  await fake?.close()
})

/** A Telegram user as updates name them. */
const tgUser = (id: number) => ({ id, is_bot: false, first_name: `User ${id}`, language_code: 'en' })

/** The bot's message about sale `saleId` in `userId`'s chat, as sendMessage's request carried it. */
const saleMessage = (userId: number, saleId: number): FakeCall => {
  const found = fake.callsOf('sendMessage').find((c) => c.params.chat_id === userId && String(c.params.text).startsWith(`Sale #${saleId}:`))
  expect(found, `the message about sale #${saleId}`).toBeDefined()
  return found!
}

/**
 * `presser` presses the Cancel button (callback data `data`) of the message about a sale in
 * `chatId`'s chat: an Update with a callback_query, posted to the bot's webhook as Telegram posts it.
 * Resolves once the bot has handled it (grammY answers the webhook after the update's handlers).
 */
const press = async (presser: number, chatId: number, messageId: number, data: string) => {
  const queryId = `cbq-${nextUpdate}`
  const update = {
    update_id: nextUpdate++,
    callback_query: {
      id: queryId,
      from: tgUser(presser),
      message: {
        message_id: messageId,
        from: BOT_USER,
        date: t.clock.now - 5,
        chat: { id: chatId, first_name: `User ${chatId}`, type: 'private' },
        text: 'Sale …',
      },
      chat_instance: `-${chatId}77`,
      data,
    },
  }
  const res = await fetch(bot.url!, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET },
    body: JSON.stringify(update),
  })
  expect(res.status).toBe(200)
  const answers = fake.callsOf('answerCallbackQuery').filter((c) => c.params.callback_query_id === queryId)
  expect(answers, 'the callback query is answered once').toHaveLength(1)
  return answers[0]!.params
}

let nextUser = 9_400
const seller = async (): Promise<Session> => {
  const id = nextUser++
  const s = await t.login(id)
  await t.server.admin.credit(id, '1000')
  return s
}
/** A sale to a new address, and the message the bot sent about it. */
const coolingSale = async (s: Session, tokens = '10') => {
  const res = await (await t.login(s.telegramId)).call('POST', '/withdraw/create', { body: { from_ref_balance: false, token_amount: tokens, address: SOME_ADDRESS } })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  await t.server.outbox!.drain()
  const id = res.body.id as number
  const message = saleMessage(s.telegramId, id)
  return { id, address: res.body.address as string, messageId: sentIds.get(message.params)! }
}

const balance = async (telegramId: number) => big((await getRow(t.server.ctx.db, 'SELECT balance_token FROM users WHERE telegram_id = ?', telegramId))!, 'balance_token')
const statusOf = async (id: number) => str((await getRow(t.server.ctx.db, 'SELECT status FROM withdrawals WHERE id = ?', id))!, 'status')
const queuedFor = async (id: number) => (await outgoingPayments(t.server.ctx)).filter((r) => r.withdrawalId === BigInt(id))
const editsOf = (chatId: number, messageId: number, method = 'editMessageText') => fake.callsOf(method).filter((c) => c.params.chat_id === chatId && c.params.message_id === messageId)

describe("a sale's Cancel button", () => {
  it('pressed by its owner while it waits: the tokens are back, the sale is never queued, the query answered and the message edited', async () => {
    const s = await seller()
    const before = await balance(s.telegramId)
    const sale = await coolingSale(s, '25')
    expect(await balance(s.telegramId)).toBe(before - 25_000_000_000n)
    const button = (saleMessage(s.telegramId, sale.id).params.reply_markup as any).inline_keyboard[0][0]
    expect(button).toEqual({ text: 'Cancel this sale', callback_data: `sale_cancel:${sale.id}` })

    t.clock.advance(DELAY - 60)
    const answer = await press(s.telegramId, s.telegramId, sale.messageId, button.callback_data)
    expect(answer).toEqual({ callback_query_id: expect.any(String), text: 'Sale cancelled: your tokens are back.' })
    expect(await balance(s.telegramId)).toBe(before)
    expect(await statusOf(sale.id)).toBe('failed')
    const edits = editsOf(s.telegramId, sale.messageId)
    expect(edits).toHaveLength(1)
    expect(edits[0]!.params).toMatchObject({
      text: `Sale #${sale.id} to ${sale.address} was cancelled: nothing was sent, and 25 AXIOM are back on your main balance.`,
      reply_markup: { inline_keyboard: [[{ text: 'Open AXIOM', url: LINK }]] },
    })
    // The operation, as a reject writes it.
    const ops = (await (await t.login(s.telegramId)).call('GET', '/operations/history', { query: { limit: 100 } })).body.items as Array<{ type: string; amount: string; description: string }>
    expect(ops[0]).toMatchObject({ type: 'withdraw_refund', amount: '25', description: `Sale #${sale.id} cancelled: tokens returned` })

    // Past its release time it is still never paid.
    t.clock.advance(120)
    await queueDueSales(t.server.ctx)
    expect(await queuedFor(sale.id)).toEqual([])
    const history = (await (await t.login(s.telegramId)).call('GET', '/withdraw/history')).body.items.find((w: { id: number }) => w.id === sale.id)
    expect(history.status).toBe('failed')
    expect(history).not.toHaveProperty('release_at')
    expect(await t.server.admin.verifyTotals()).toEqual([])
  })

  it('pressed twice (a double tap, a stale message): the tokens come back once', async () => {
    const s = await seller()
    const before = await balance(s.telegramId)
    const sale = await coolingSale(s)
    const data = `sale_cancel:${sale.id}`
    const [first, second] = await Promise.all([press(s.telegramId, s.telegramId, sale.messageId, data), press(s.telegramId, s.telegramId, sale.messageId, data)])
    expect([first.text, second.text].sort()).toEqual(['Sale cancelled: your tokens are back.', 'This sale was already cancelled.'])
    const third = await press(s.telegramId, s.telegramId, sale.messageId, data)
    expect(third).toMatchObject({ text: 'This sale was already cancelled.', show_alert: true })
    expect(await balance(s.telegramId)).toBe(before)
  })

  it("pressed by another user (a client sending another's callback data): nothing changes", async () => {
    const owner = await seller()
    const thief = await seller()
    const ownerBefore = await balance(owner.telegramId)
    const thiefBefore = await balance(thief.telegramId)
    const sale = await coolingSale(owner)
    const answer = await press(thief.telegramId, thief.telegramId, 1, `sale_cancel:${sale.id}`)
    expect(answer).toMatchObject({ text: 'This is not a sale of yours.', show_alert: true })
    expect(await statusOf(sale.id)).toBe('pending')
    expect(await balance(owner.telegramId)).toBe(ownerBefore - 10_000_000_000n)
    expect(await balance(thief.telegramId)).toBe(thiefBefore)
    expect(editsOf(owner.telegramId, sale.messageId)).toEqual([])
    // A Telegram user with no account at all: the same.
    expect((await press(9_999_001, 9_999_001, 1, `sale_cancel:${sale.id}`)).text).toBe('This is not a sale of yours.')
    expect(await statusOf(sale.id)).toBe('pending')
  })

  it('pressed after the wait, or once the sale is queued: nothing changes, the button goes', async () => {
    const s = await seller()
    const sale = await coolingSale(s)
    const after = await balance(s.telegramId)
    t.clock.advance(DELAY)
    const late = await press(s.telegramId, s.telegramId, sale.messageId, `sale_cancel:${sale.id}`)
    expect(late).toMatchObject({ text: 'This sale can no longer be cancelled: its wait is over and it is being paid.', show_alert: true })
    expect(await statusOf(sale.id)).toBe('pending')
    expect(editsOf(s.telegramId, sale.messageId, 'editMessageReplyMarkup').at(-1)!.params).toMatchObject({ reply_markup: { inline_keyboard: [[{ text: 'Open AXIOM', url: LINK }]] } })

    await queueDueSales(t.server.ctx)
    expect(await queuedFor(sale.id)).toHaveLength(1)
    const queued = await press(s.telegramId, s.telegramId, sale.messageId, `sale_cancel:${sale.id}`)
    expect(queued.text).toBe('This sale can no longer be cancelled: its wait is over and it is being paid.')
    expect(await statusOf(sale.id)).toBe('sending')
    expect(await balance(s.telegramId)).toBe(after)
    expect(editsOf(s.telegramId, sale.messageId)).toEqual([])
  })

  it('in Russian for a Russian-speaking user', async () => {
    const s = await seller()
    const sale = await coolingSale(s, '7')
    const update = { ...tgUser(s.telegramId), language_code: 'ru' }
    const res = await fetch(bot.url!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET },
      body: JSON.stringify({
        update_id: nextUpdate++,
        callback_query: {
          id: 'cbq-ru',
          from: update,
          message: { message_id: sale.messageId, from: BOT_USER, date: t.clock.now, chat: { id: s.telegramId, type: 'private', first_name: 'x' }, text: '…' },
          chat_instance: '-1',
          data: `sale_cancel:${sale.id}`,
        },
      }),
    })
    expect(res.status).toBe(200)
    expect(fake.callsOf('answerCallbackQuery').find((c) => c.params.callback_query_id === 'cbq-ru')!.params.text).toBe('Продажа отменена: токены вернулись.')
    expect(editsOf(s.telegramId, sale.messageId)[0]!.params.text).toBe(`Продажа #${sale.id} на адрес ${sale.address} отменена: ничего не отправлено, 7 AXIOM вернулись на основной баланс.`)
  })
})

describe('POST /api/telegram/sale-cancel', () => {
  it('takes only init data signed with the bot token, and a sale id', async () => {
    const s = await seller()
    const sale = await coolingSale(s)
    const forged = await call(t.url, 'POST', '/telegram/sale-cancel', { body: { init_data: signInitData({ id: s.telegramId }, t.clock.now, '123:not-the-bot-token'), sale_id: sale.id } })
    expect(forged.status).toBe(401)
    const noId = await call(t.url, 'POST', '/telegram/sale-cancel', { body: { init_data: signInitData({ id: s.telegramId }, t.clock.now), sale_id: 'x' } })
    expect(noId.status).toBe(422)
    // A bearer token is no way in: the route reads the init data only.
    const bearer = await s.call('POST', '/telegram/sale-cancel', { body: { sale_id: sale.id } })
    expect(bearer.status).toBe(401)
    expect(await statusOf(sale.id)).toBe('pending')
    const ownerSigned = await call(t.url, 'POST', '/telegram/sale-cancel', { body: { init_data: signInitData({ id: s.telegramId }, t.clock.now), sale_id: sale.id } })
    expect(ownerSigned.status).toBe(200)
    expect(ownerSigned.body).toMatchObject({ outcome: 'cancelled', sale: { id: sale.id, status: 'failed', token_amount: '10' } })
  })
})
