import { autoRetry } from '@grammyjs/auto-retry'
import { Api, GrammyError, HttpError, type Transformer } from 'grammy'

export { DEFAULT_TELEGRAM_API_ROOT } from '../config/telegram-settings.ts'

/** Where the backend's Bot API client points and what it may wait for. */
export interface BotApiOptions {
  readonly token: string
  /** The Bot API server, https://api.telegram.org or the local emulator. */
  readonly apiRoot: string
  /** The longest 429 `retry_after` waited for before the call gives up (the sender waits longer than a request may). */
  readonly maxRetryAfterS: number
  /** One HTTP request to the Bot API gives up after this (getUpdates' long poll adds its own timeout). */
  readonly timeoutSeconds: number
  /** Sees every attempt's answer, inside the retry (the metrics count 429s and 403s with it). */
  readonly observe?: Transformer
}

/**
 * The one Bot API client: grammY's Api, with 429s waited out (`parameters.retry_after`, at most
 * maxRetryAfterS, three tries).
 */
export const createBotApi = (o: BotApiOptions): Api => {
  const api = new Api(o.token, { apiRoot: o.apiRoot.replace(/\/+$/, ''), timeoutSeconds: o.timeoutSeconds })
  if (o.observe) api.config.use(o.observe)
  // 5xx and network failures are the caller's to retry (the outbox retries; a user's request gives up).
  api.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: o.maxRetryAfterS, rethrowInternalServerErrors: true, rethrowHttpErrors: true }))
  return api
}

/**
 * What a failed Bot API call means for the caller:
 * - 'blocked': 403, the user blocked the bot (or deleted their account): stop writing to them;
 * - 'not-allowed': the user never started the bot nor let it write (403 "bot can't initiate
 *   conversation with a user", or 400 "chat not found"): they may allow it any moment (the app asks);
 * - 'refused': any other 4xx, the request itself is wrong and will not succeed when repeated;
 * - 'unavailable': 5xx, 429 after its waits, a network error or a timeout: try again later.
 */
export type BotApiFailure = 'blocked' | 'not-allowed' | 'refused' | 'unavailable'

const NOT_ALLOWED = /can't initiate conversation|chat not found/i

export const failureOf = (e: unknown): BotApiFailure => {
  if (e instanceof GrammyError) {
    if ((e.error_code === 403 || e.error_code === 400) && NOT_ALLOWED.test(e.description)) return 'not-allowed'
    if (e.error_code === 403) return 'blocked'
    if (e.error_code === 429 || e.error_code >= 500) return 'unavailable'
    return 'refused'
  }
  if (e instanceof HttpError) return 'unavailable'
  return 'unavailable'
}

/** The Bot API's own words for a failure, for logs and for an operator. */
export const describeFailure = (e: unknown): string =>
  e instanceof GrammyError ? `${e.error_code} ${e.description}` : e instanceof Error ? e.message : String(e)
