import { parse, validate } from '@telegram-apps/init-data-node'
import { INVALID_INIT_DATA_MSG } from '../../core/domain/constants.ts'
import { httpError } from '../http/errors.ts'
import type { TelegramUser } from '../domain/users.ts'

/**
 * Checks a raw initData string: the HMAC over its raw fields with the bot token, and an auth_date
 * no older than `maxAgeS` (checked against our clock, not the library's, so tests can move time).
 */
export const telegramUserFrom = (raw: unknown, botToken: string, nowS: number, maxAgeS: number): TelegramUser => {
  const invalid = httpError(401, INVALID_INIT_DATA_MSG)
  if (typeof raw !== 'string' || raw === '' || raw.length > 8192) throw invalid
  try {
    validate(raw, botToken, { expiresIn: 0 })
    const authDate = Number(new URLSearchParams(raw).get('auth_date'))
    if (!Number.isSafeInteger(authDate) || nowS - authDate > maxAgeS || authDate - nowS > 300) throw invalid
    const user = parse(raw).user
    if (!user || !Number.isSafeInteger(user.id) || user.id <= 0) throw invalid
    const name = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username || `user${user.id}`
    return { id: BigInt(user.id), name: name.slice(0, 128) }
  } catch {
    throw invalid
  }
}
