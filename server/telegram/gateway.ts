import type { TelegramGateway } from '../domain/telegram-gateway.ts'
import type { TelegramSettings } from '../config/telegram-settings.ts'
import { createBotApi } from './bot-api.ts'

export { DEFAULT_TELEGRAM_API_ROOT, defaultTelegramSettings, type TelegramSettings } from '../config/telegram-settings.ts'
export type { TelegramGateway } from '../domain/telegram-gateway.ts'

export const createTelegramGateway = (botToken: string, settings: TelegramSettings): TelegramGateway => ({
  settings,
  api: createBotApi({ token: botToken, apiRoot: settings.apiRoot, maxRetryAfterS: 2, timeoutSeconds: Math.max(1, Math.ceil(settings.requestTimeoutMs / 1000)) }),
  lastMembershipCheck: new Map(),
})
