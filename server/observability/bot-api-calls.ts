import type { Transformer } from 'grammy'

/**
 * A grammY transformer that counts each Bot API answer by method and result: `ok`, Telegram's
 * error_code (`429` too many requests, `403` blocked, …) or `network` (no answer). Installed before
 * the auto-retry (server/telegram/bot-api.ts), it sees every attempt, the 429s the retry waits out too.
 */
export const countBotApiCalls =
  (count: (method: string, result: string) => void): Transformer =>
  async (prev, method, payload, signal) => {
    try {
      const answer = await prev(method, payload, signal)
      count(method, answer.ok ? 'ok' : String(answer.error_code))
      return answer
    } catch (e) {
      count(method, 'network')
      throw e
    }
  }
