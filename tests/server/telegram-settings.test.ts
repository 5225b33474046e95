import { describe, expect, it } from 'vitest'
import { botConfigFromEnv } from '../../bot/config.ts'
import { optionsFromEnv } from '../../server/main.ts'

describe('Telegram settings from the environment', () => {
  it('the backend: TELEGRAM_API_ROOT defaults to Telegram; the community and the direct link are read and checked', () => {
    expect(optionsFromEnv({}).telegram).toMatchObject({ apiRoot: 'https://api.telegram.org', communityChat: null, miniAppLink: 'https://t.me/axiom_dev_bot/app' })
    expect(
      optionsFromEnv({ TELEGRAM_API_ROOT: 'http://127.0.0.1:8790', AXIOM_COMMUNITY_CHAT: '-1001234567890', AXIOM_MINI_APP_LINK: 'https://t.me/axiom_bot/app/' }).telegram,
    ).toMatchObject({ apiRoot: 'http://127.0.0.1:8790', communityChat: '-1001234567890', miniAppLink: 'https://t.me/axiom_bot/app' })
    expect(() => optionsFromEnv({ AXIOM_COMMUNITY_CHAT: 'axiom community' })).toThrow(/AXIOM_COMMUNITY_CHAT/)
    expect(() => optionsFromEnv({ AXIOM_MINI_APP_LINK: 'https://t.me/axiom_bot' })).toThrow(/AXIOM_MINI_APP_LINK/)
    expect(() => optionsFromEnv({ TELEGRAM_API_ROOT: 'api.telegram.org' })).toThrow(/TELEGRAM_API_ROOT/)
  })

  it('the bot: polling by default; a webhook needs a secret Telegram accepts', () => {
    expect(botConfigFromEnv({}).webhook).toBeNull()
    expect(() => botConfigFromEnv({ TELEGRAM_WEBHOOK_URL: 'https://bot.example/hook' })).toThrow(/TELEGRAM_WEBHOOK_SECRET/)
    expect(botConfigFromEnv({ TELEGRAM_WEBHOOK_URL: 'https://bot.example/hook', TELEGRAM_WEBHOOK_SECRET: 'a'.repeat(32) }).webhook).toEqual({
      url: 'https://bot.example/hook',
      secret: 'a'.repeat(32),
      port: 8791,
      host: '127.0.0.1',
    })
  })
})
