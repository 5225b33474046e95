import { afterEach, describe, expect, it } from 'vitest'
import { botConfigFromEnv } from '../../bot/config.ts'
import { runBot, type RunningBot } from '../../bot/run.ts'
import { DEV_BOT_TOKEN } from '../../server/main.ts'
import { createBotApiState, startBotApiServer, type RunningBotApi } from '../../stand-ins/telegram-host/index.ts'

/**
 * Stopping the bot when its Bot API has already gone (under `npm start`, Ctrl-C reaches every
 * process at once, and the host emulator's Bot API may close before the bot): grammY's stop asks
 * getUpdates once more to confirm the last updates, which then fails with ECONNREFUSED. The bot's
 * stop resolves all the same; nothing is thrown or left unhandled.
 */
let telegram: RunningBotApi | null = null
let bot: RunningBot | null = null
afterEach(async () => {
  await telegram?.close().catch(() => undefined)
  telegram = null
  bot = null
})

const startBot = async () => {
  telegram = await startBotApiServer(createBotApiState({ token: DEV_BOT_TOKEN, botUsername: 'axiom_dev_bot', botName: 'AXIOM', communityChat: '@axiom_community' }))
  // The backend is never asked: no update reaches the bot in these tests.
  const config = botConfigFromEnv({ BOT_TOKEN: DEV_BOT_TOKEN, TELEGRAM_API_ROOT: telegram.url, AXIOM_API: 'http://127.0.0.1:9', AXIOM_MINI_APP_LINK: 'https://t.me/axiom_dev_bot/app' })
  bot = await runBot(config)
  expect(bot.isRunning()).toBe(true)
  return bot
}

describe('the bot’s stop', () => {
  it('resolves when the Bot API has closed first (ECONNREFUSED), and no rejection goes unhandled', async () => {
    const unhandled: unknown[] = []
    const onUnhandled = (e: unknown) => unhandled.push(e)
    process.on('unhandledRejection', onUnhandled)
    try {
      const running = await startBot()
      // Let the first long poll reach the Bot API.
      await new Promise((r) => setTimeout(r, 200))
      await telegram!.close()
      telegram = null
      await expect(running.stop()).resolves.toBeUndefined()
      expect(running.isRunning()).toBe(false)
      await running.done
      // A second stop (SIGINT and SIGTERM both) waits for the same one.
      await expect(running.stop()).resolves.toBeUndefined()
      await new Promise((r) => setTimeout(r, 50))
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', onUnhandled)
    }
  })

  it('still confirms the last updates when the Bot API is there', async () => {
    const running = await startBot()
    await new Promise((r) => setTimeout(r, 100))
    await expect(running.stop()).resolves.toBeUndefined()
    expect(running.isRunning()).toBe(false)
  })
})
