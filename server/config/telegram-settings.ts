/** The Bot API's public server; TELEGRAM_API_ROOT points elsewhere (the local emulator). */
export const DEFAULT_TELEGRAM_API_ROOT = 'https://api.telegram.org'

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

