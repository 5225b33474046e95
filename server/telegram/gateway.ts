import type { Api } from 'grammy'
import { createBotApi, DEFAULT_TELEGRAM_API_ROOT } from './bot-api.ts'

/** How the backend reaches Telegram (docs/deploy.md, "Going live on Telegram"). */
export interface TelegramSettings {
  /** TELEGRAM_API_ROOT: https://api.telegram.org, or the local emulator. */
  readonly apiRoot: string
  /** AXIOM_COMMUNITY_CHAT: `@name` or a numeric id; null keeps the dev behaviour (task 1 or the admin decides). */
  readonly communityChat: string | null
  /** AXIOM_MINI_APP_LINK: the mini app's direct link, https://t.me/<bot>/<app>. */
  readonly miniAppLink: string
  /** A Bot API call made while a user waits gives up after this. */
  readonly requestTimeoutMs: number
  /** Notifications sent a second, all instances together (Telegram allows about 30). */
  readonly notifyPerSecond: number
}

export const defaultTelegramSettings = (): TelegramSettings => ({
  apiRoot: DEFAULT_TELEGRAM_API_ROOT,
  communityChat: null,
  miniAppLink: 'https://t.me/axiom_dev_bot/app',
  requestTimeoutMs: 3_000,
  notifyPerSecond: 25,
})

/** The backend's side of Telegram: its Bot API client and what it remembers between requests. */
export interface TelegramGateway {
  readonly settings: TelegramSettings
  /** For calls made while a user waits: a 429 is waited out only when short. */
  readonly api: Api
  /** When each user's membership was last asked for (unix seconds): /user/me asks at most every 10 s. */
  readonly lastMembershipCheck: Map<bigint, number>
}

export const createTelegramGateway = (botToken: string, settings: TelegramSettings): TelegramGateway => ({
  settings,
  api: createBotApi({ token: botToken, apiRoot: settings.apiRoot, maxRetryAfterS: 2, timeoutSeconds: Math.max(1, Math.ceil(settings.requestTimeoutMs / 1000)) }),
  lastMembershipCheck: new Map(),
})
