import { defaultTelegramSettings, type TelegramSettings } from './gateway.ts'

const COMMUNITY_CHAT = /^(@[A-Za-z][A-Za-z0-9_]{3,31}|-?\d{1,16})$/

/**
 * The backend's Telegram settings from the environment (docs/deploy.md, "Going live on Telegram"):
 * TELEGRAM_API_ROOT (default https://api.telegram.org), AXIOM_COMMUNITY_CHAT (`@name` or a numeric
 * id; unset keeps the dev membership), AXIOM_MINI_APP_LINK (https://t.me/<bot>/<app>).
 */
export const telegramFromEnv = (env: NodeJS.ProcessEnv): TelegramSettings => {
  const d = defaultTelegramSettings()
  const apiRoot = env.TELEGRAM_API_ROOT?.trim() || d.apiRoot
  if (!/^https?:\/\/[^/\s]+/.test(apiRoot)) throw new Error('TELEGRAM_API_ROOT must be an http(s) URL, such as https://api.telegram.org')
  const chat = env.AXIOM_COMMUNITY_CHAT?.trim() || null
  if (chat !== null && !COMMUNITY_CHAT.test(chat)) throw new Error('AXIOM_COMMUNITY_CHAT must be @channelname or a numeric chat id')
  const link = env.AXIOM_MINI_APP_LINK?.trim() || d.miniAppLink
  if (!/^https:\/\/t\.me\/[A-Za-z0-9_]{4,32}\/[A-Za-z0-9_]{3,64}\/?$/.test(link)) {
    throw new Error('AXIOM_MINI_APP_LINK must be the mini app direct link, https://t.me/<bot>/<app>')
  }
  return { ...d, apiRoot, communityChat: chat, miniAppLink: link.replace(/\/$/, '') }
}
