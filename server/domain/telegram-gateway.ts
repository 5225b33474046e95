import type { Api } from 'grammy'
import type { TelegramSettings } from '../config/telegram-settings.ts'

/** The backend's side of Telegram: its Bot API client and what it remembers between requests. */
export interface TelegramGateway {
  readonly settings: TelegramSettings
  /** For calls made while a user waits: a 429 is waited out only when short. */
  readonly api: Api
  /** When each user's membership was last asked for (unix seconds): /user/me asks at most every 10 s. */
  readonly lastMembershipCheck: Map<bigint, number>
}
