import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { botConfigFromEnv, type BotConfig } from '../../bot/config.ts'
import { runBot, type RunningBot } from '../../bot/run.ts'
import { DEV_BOT_TOKEN } from '../../server/main.ts'
import { createBotApiState, startBotApiServer, type RunningBotApi } from '../../stand-ins/telegram-host/index.ts'
import { startTestServer, type TestServer } from '../server/support.ts'

const LINK = 'https://t.me/axiom_dev_bot/app'

let telegram: RunningBotApi
let t: TestServer
let bot: RunningBot
let config: BotConfig

const user = (id: number, language_code = 'en') => ({ id, first_name: `User ${id}`, language_code })
/** The bot's replies to `id` after message `after`, waiting for `count` of them. */
const replies = async (id: number, after: number, count = 1) => {
  await expect.poll(() => telegram.state.chatOf(id, after).filter((m) => m.from === 'bot').length, { timeout: 8000 }).toBeGreaterThanOrEqual(count)
  return telegram.state.chatOf(id, after).filter((m) => m.from === 'bot')
}
const say = (id: number, text: string, lang = 'en') => telegram.state.userWrites(user(id, lang), text).message_id

beforeAll(async () => {
  telegram = await startBotApiServer(createBotApiState({ token: DEV_BOT_TOKEN, botUsername: 'axiom_dev_bot', botName: 'AXIOM', communityChat: '@axiom_community' }))
  t = await startTestServer()
  config = botConfigFromEnv({ BOT_TOKEN: DEV_BOT_TOKEN, TELEGRAM_API_ROOT: telegram.url, AXIOM_API: t.url, AXIOM_MINI_APP_LINK: LINK })
  bot = await runBot(config, { appUrl: 'https://app.example/', nowS: () => t.clock.now })
})
afterAll(async () => {
  await bot.stop()
  await t.close()
  await telegram.close()
})

describe('the product bot, long polling the Bot API', () => {
  it('sets its commands and the menu button', () => {
    expect((telegram.state.commands as Array<{ command: string }>).map((c) => c.command)).toEqual(['start', 'balance', 'bonds', 'notifications', 'help'])
    expect(telegram.state.menuButton).toEqual({ type: 'web_app', text: 'AXIOM', web_app: { url: 'https://app.example/' } })
  })

  it('/start <code> answers with a button to the direct link carrying the same start parameter, in the user’s language', async () => {
    const [en] = await replies(9001, say(9001, '/start Ref_42-x'))
    expect(en!.text).toMatch(/^Welcome to AXIOM/)
    expect(en!.reply_markup).toEqual({ inline_keyboard: [[{ text: 'Open AXIOM', url: `${LINK}?startapp=Ref_42-x` }]] })
    const [ru] = await replies(9002, say(9002, '/start farm_abc', 'ru'))
    expect(ru!.text).toMatch(/^Добро пожаловать/)
    expect(ru!.reply_markup).toEqual({ inline_keyboard: [[{ text: 'Открыть AXIOM', url: `${LINK}?startapp=farm_abc` }]] })
    const [plain] = await replies(9003, say(9003, '/start'))
    expect(plain!.reply_markup).toEqual({ inline_keyboard: [[{ text: 'Open AXIOM', url: LINK }]] })
  })

  it('/balance and /bonds read the user’s account through the backend, signed in with init data the bot signs', async () => {
    const [balance] = await replies(9010, say(9010, '/balance'))
    // The app's names for the three balances, in the user's language.
    expect(balance!.text).toBe('Your balances\nMain balance: 100.00 AXIOM\nTask balance: 0.00 AXIOM\nReferral balance: 0.00 AXIOM')
    const [ru] = await replies(9012, say(9012, '/balance', 'ru'))
    expect(ru!.text).toBe('Ваши балансы\nОсновной баланс: 100.00 AXIOM\nБаланс заданий: 0.00 AXIOM\nРеферальный баланс: 0.00 AXIOM')
    // Another user's bond first: /bonds names the user's by their own number (#1), as the app does.
    await (await t.login(9011)).call('POST', '/mint/create', { body: { amount: 20, days: 30 } })
    const s = await t.login(9010)
    const created = await s.call('POST', '/mint/create', { body: { amount: 20, days: 30 } })
    await t.server.markMintPaid(Number(created.body.mint.id))
    const [bonds] = await replies(9010, say(9010, '/bonds'))
    expect(Number(created.body.mint.id)).toBeGreaterThan(1)
    expect(bonds!.text).toMatch(/^Bond #1 · active · 20\.00 AXIOM · 30 d · reward/)
  })

  it('/notifications off and on switch the backend’s messages for that user', async () => {
    const [off] = await replies(9020, say(9020, '/notifications off'))
    expect(off!.text).toBe('Notifications are off.')
    const row = await t.server.ctx.db.one('SELECT notifications FROM users WHERE telegram_id = ?', 9020)
    expect(Number(row!.notifications)).toBe(0)
    const [on] = await replies(9020, say(9020, '/notifications on'))
    expect(on!.text).toBe('Notifications are on.')
    const [usage] = await replies(9020, say(9020, '/notifications maybe'))
    expect(usage!.text).toMatch(/notifications on/)
    const [help] = await replies(9020, say(9020, '/help'))
    expect(help!.text).toContain('/balance')
  })

  it('is the one consumer: a second poller on the token ends this one (Telegram’s 409), and it stops', async () => {
    expect(bot.isRunning()).toBe(true)
    const res = await fetch(`${telegram.url}/bot${DEV_BOT_TOKEN}/getUpdates`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"timeout":1}' })
    expect(res.status).toBe(200)
    await bot.done
    expect(bot.isRunning()).toBe(false)
  })
})

describe('the product bot on a webhook', () => {
  it('refuses an update without the right X-Telegram-Bot-Api-Secret-Token, and handles one with it', async () => {
    const secret = 'webhook-secret-0123456789'
    const hooked = await runBot({ ...config, webhook: { url: 'http://127.0.0.1/placeholder', secret, port: 0, host: '127.0.0.1' } }, { nowS: () => t.clock.now })
    try {
      expect(telegram.state.webhook).toEqual({ url: 'http://127.0.0.1/placeholder', secret_token: secret })
      const update = { update_id: 1, message: { message_id: 1, date: 1, chat: { id: 9040, type: 'private' }, from: user(9040), text: '/help', entities: [{ type: 'bot_command', offset: 0, length: 5 }] } }
      telegram.state.knowUser(user(9040))
      telegram.state.userWrites(user(9040), 'hello')
      const post = (headers: Record<string, string>) =>
        fetch(hooked.url!, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(update) })
      expect((await post({})).status).toBe(401)
      expect((await post({ 'x-telegram-bot-api-secret-token': 'wrong-secret-000000000' })).status).toBe(401)
      expect((await post({ 'x-telegram-bot-api-secret-token': secret })).status).toBe(200)
      const [help] = await replies(9040, 0)
      expect(help!.text).toContain('/balance')
    } finally {
      await hooked.stop()
      await fetch(`${telegram.url}/bot${DEV_BOT_TOKEN}/deleteWebhook`, { method: 'POST' })
    }
  })
})
