import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { botConfigFromEnv, type BotConfig } from '../../bot/config.ts'
import { runBot, type RunningBot } from '../../bot/run.ts'
import { defaultTelegramSettings, DEV_BOT_TOKEN } from '../../server/main.ts'
import { createBotApiState, startBotApiServer, type RunningBotApi } from '../../stand-ins/telegram-host/index.ts'
import { startTestServer, type TestServer } from '../server/support.ts'

/**
 * The bot passes Telegram's chat_member and my_chat_member updates to the backend: a member who
 * leaves the community is not one from that moment, and a user who blocks or unblocks the bot is
 * recorded. The emulator's Bot API sends chat_member as Telegram does (to a consumer that asked for
 * it); my_chat_member arrives here as a hand-written envelope (core.telegram.org/bots/api#update).
 */
const COMMUNITY = '@axiom_community'
const LINK = 'https://t.me/axiom_dev_bot/app'

let telegram: RunningBotApi
let t: TestServer
let config: BotConfig

beforeAll(async () => {
  telegram = await startBotApiServer(createBotApiState({ token: DEV_BOT_TOKEN, botUsername: 'axiom_dev_bot', botName: 'AXIOM', communityChat: COMMUNITY }))
  t = await startTestServer({ telegram: { ...defaultTelegramSettings(), apiRoot: telegram.url, communityChat: COMMUNITY, miniAppLink: LINK, requestTimeoutMs: 3_000 } })
  config = botConfigFromEnv({ BOT_TOKEN: DEV_BOT_TOKEN, TELEGRAM_API_ROOT: telegram.url, AXIOM_API: t.url, AXIOM_MINI_APP_LINK: LINK })
})
afterAll(async () => {
  await t?.close()
  await telegram?.close()
})

const user = (id: number) => ({ id, first_name: `User ${id}`, language_code: 'en' })
const community = async (s: { call: TestServer['call'] }) => ((await s.call('GET', '/user/me')).body as { community_participation: boolean }).community_participation
const blockedAt = async (telegramId: number) => (await t.server.ctx.db.one('SELECT bot_blocked_at FROM users WHERE telegram_id = ?', telegramId))!.bot_blocked_at

describe('the bot, long polling', () => {
  let bot: RunningBot
  beforeAll(async () => {
    bot = await runBot(config, { nowS: () => t.clock.now })
  })
  afterAll(() => bot?.stop())

  it('a member who leaves the community is not one at once: /user/me says so without a new sign-in', async () => {
    const id = 62_001
    telegram.state.knowUser(user(id))
    telegram.state.setMember(id, true)
    const s = await t.login(id)
    expect(await community(s)).toBe(true)

    telegram.state.setMember(id, false)
    // /user/me asks Telegram again only while the user is not a member: only the update can tell it.
    await expect.poll(() => community(s), { timeout: 8000 }).toBe(false)
  })

  it('a chat_member update about a Telegram user with no account makes none', async () => {
    const stranger = 62_002
    const known = 62_003
    telegram.state.knowUser(user(known))
    const s = await t.login(known)
    telegram.state.setMember(stranger, true)
    telegram.state.setMember(known, true)
    // Updates are handled in order: once the second has reached the backend, so has the first.
    await expect.poll(() => community(s), { timeout: 8000 }).toBe(true)
    expect(await t.server.ctx.db.one('SELECT id FROM users WHERE telegram_id = ?', stranger)).toBeUndefined()
  })
})

describe('the bot on a webhook, given raw updates', () => {
  it('my_chat_member in a private chat: kicked records the block, member lifts it', async () => {
    const secret = 'webhook-secret-chat-member-01'
    const hooked = await runBot({ ...config, webhook: { url: 'http://127.0.0.1/placeholder', secret, port: 0, host: '127.0.0.1' } }, { nowS: () => t.clock.now })
    try {
      const id = 62_010
      await t.login(id)
      const from = { id, is_bot: false, first_name: `User ${id}`, language_code: 'en' }
      const botUser = { id: Number(DEV_BOT_TOKEN.split(':')[0]), is_bot: true, first_name: 'AXIOM', username: 'axiom_dev_bot' }
      const envelope = (updateId: number, old: string, now: string) => ({
        update_id: updateId,
        my_chat_member: {
          chat: { id, first_name: `User ${id}`, type: 'private' },
          from,
          date: t.clock.now,
          old_chat_member: { user: botUser, status: old, ...(old === 'kicked' ? { until_date: 0 } : {}) },
          new_chat_member: { user: botUser, status: now, ...(now === 'kicked' ? { until_date: 0 } : {}) },
        },
      })
      const post = (body: unknown) =>
        fetch(hooked.url!, { method: 'POST', headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret }, body: JSON.stringify(body) })

      expect((await post(envelope(900_001, 'member', 'kicked'))).status).toBe(200)
      await expect.poll(() => blockedAt(id), { timeout: 8000 }).not.toBeNull()
      expect((await post(envelope(900_002, 'kicked', 'member'))).status).toBe(200)
      await expect.poll(() => blockedAt(id), { timeout: 8000 }).toBeNull()
      expect(telegram.state.webhook).toEqual({ url: 'http://127.0.0.1/placeholder', secret_token: secret })
    } finally {
      await hooked.stop()
      await fetch(`${telegram.url}/bot${DEV_BOT_TOKEN}/deleteWebhook`, { method: 'POST' })
    }
  })
})
