import { createHmac, timingSafeEqual } from 'node:crypto'
import { INVALID_INIT_DATA_MSG } from '../../core/domain/constants.ts'
import { NotSignedIn } from '../domain/errors.ts'
import type { TelegramUser } from '../domain/users.ts'

const MAX_INIT_DATA_LENGTH = 8192
const MAX_NAME_LENGTH = 128
const AUTH_DATE = /^\d{1,12}$/

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '')

/** `hash`: hex of an HMAC-SHA256, 32 bytes. */
const HASH_HEX = /^[0-9a-f]{64}$/

/** secret = HMAC_SHA256(key = "WebAppData", data = bot token), per token. */
const secrets = new Map<string, Buffer>()
const secretOf = (botToken: string): Buffer => {
  let secret = secrets.get(botToken)
  if (!secret) {
    secret = createHmac('sha256', 'WebAppData').update(botToken).digest()
    if (secrets.size >= 16) secrets.clear()
    secrets.set(botToken, secret)
  }
  return secret
}

/**
 * Telegram's check (core.telegram.org/bots/webapps, "Validating data received via the Mini App"):
 * every received field but `hash`, decoded, as `key=value` lines sorted by key and joined by `\n`
 * (`signature` included when sent), HMAC-SHA256 keyed with the secret; it must equal `hash`. A `hash`
 * that is not 64 hex digits is refused before anything is compared, and the comparison takes the
 * same time wherever the bytes differ (timingSafeEqual on two 32-byte buffers). A field sent twice is
 * refused: Telegram never sends one, and it would let the fields checked differ from those read.
 */
const hashChecksOut = (params: URLSearchParams, botToken: string): boolean => {
  const hashes = params.getAll('hash')
  if (hashes.length !== 1) return false
  const given = hashes[0]!
  if (given.length !== 64 || !HASH_HEX.test(given)) return false
  const fields = new Map<string, string>()
  for (const [key, value] of params) {
    if (key === 'hash') continue
    if (fields.has(key)) return false
    fields.set(key, value)
  }
  const checkString = [...fields.keys()]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((key) => `${key}=${fields.get(key)!}`)
    .join('\n')
  const expected = createHmac('sha256', secretOf(botToken)).update(checkString).digest()
  const presented = Buffer.from(given, 'hex')
  return presented.length === expected.length && timingSafeEqual(presented, expected)
}

/**
 * The user of initData whose hash already checked out. Only `user.id` is required: every other
 * field (first_name, last_name, username, photo_url, language_code, ...) is optional, as are the
 * launch fields around it (signature, query_id, chat_type, start_param, ...), which clients before
 * Bot API 8.0 do not send at all. The name shown to others falls back from the first and last name
 * to the username, then to `user<id>`.
 */
const userOf = (params: URLSearchParams): TelegramUser | null => {
  const users = params.getAll('user')
  if (users.length !== 1) return null
  let user: unknown
  try {
    user = JSON.parse(users[0]!)
  } catch {
    return null
  }
  if (typeof user !== 'object' || user === null || Array.isArray(user)) return null
  const u = user as Record<string, unknown>
  // Telegram user ids use up to 52 bits: a JSON number reads them exactly.
  if (typeof u.id !== 'number' || !Number.isSafeInteger(u.id) || u.id <= 0) return null
  const name = [text(u.first_name), text(u.last_name)].filter(Boolean).join(' ') || text(u.username) || `user${u.id}`
  const language = typeof u.language_code === 'string' && /^[a-z]{2,3}(-[A-Za-z0-9]{1,8})?$/.test(u.language_code) ? u.language_code : null
  return { id: BigInt(u.id), name: Array.from(name).slice(0, MAX_NAME_LENGTH).join(''), language }
}

/**
 * Checks a raw initData string: the HMAC over its raw fields with the bot token (every field but
 * `hash`, `signature` included when the client sent one; `hashChecksOut`), and an auth_date no older
 * than `maxAgeS` (config.initDataMaxAgeS, 1 h by default) nor more than 5 minutes ahead, on our clock.
 * The Ed25519 `signature` for third parties is not needed: we hold the bot token.
 */
export const telegramUserFrom = (raw: unknown, botToken: string, nowS: number, maxAgeS: number): TelegramUser => {
  const invalid = new NotSignedIn(INVALID_INIT_DATA_MSG)
  if (typeof raw !== 'string' || raw === '' || raw.length > MAX_INIT_DATA_LENGTH) throw invalid
  let params: URLSearchParams
  try {
    params = new URLSearchParams(raw)
  } catch {
    throw invalid
  }
  if (!hashChecksOut(params, botToken)) throw invalid
  const authDates = params.getAll('auth_date')
  if (authDates.length !== 1 || !AUTH_DATE.test(authDates[0]!)) throw invalid
  const authDate = Number(authDates[0])
  if (nowS - authDate > maxAgeS || authDate - nowS > 300) throw invalid
  const user = userOf(params)
  if (!user) throw invalid
  return user
}
