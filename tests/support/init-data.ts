import { createHmac, randomBytes } from 'node:crypto'

/**
 * Telegram initData built by hand from the protocol (core.telegram.org/bots/webapps, "Validating
 * data received via the Mini App"), independent of any library the code under test uses:
 *   secret       = HMAC_SHA256(key = "WebAppData", data = bot_token)
 *   check string = every field but `hash`, as `key=value`, sorted by key, joined by "\n"
 *                  (`signature` included when present)
 *   hash         = hex(HMAC_SHA256(key = secret, data = check string))
 * Values are the decoded strings; the query is written as clients write it (encodeURIComponent).
 */

export type InitDataFields = Readonly<Record<string, string>>

export const checkStringOf = (fields: InitDataFields): string =>
  Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('\n')

export const initDataHash = (fields: InitDataFields, botToken: string): string => {
  const secret = createHmac('sha256', 'WebAppData').update(botToken).digest()
  return createHmac('sha256', secret).update(checkStringOf(fields)).digest('hex')
}

export const toQuery = (fields: InitDataFields): string =>
  Object.entries(fields)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&')

/** The raw initData string of `fields`, with `hash` appended last as clients send it. */
export const signFields = (fields: InitDataFields, botToken: string): string =>
  `${toQuery(fields)}&hash=${initDataHash(fields, botToken)}`

/** Does a raw initData string carry the right hash for its fields? (The same rule, for checking a signer.) */
export const hasValidHash = (raw: string, botToken: string): boolean => {
  const params = new URLSearchParams(raw)
  const hash = params.get('hash')
  const fields: Record<string, string> = {}
  for (const [k, v] of params) if (k !== 'hash') fields[k] = v
  return hash !== null && hash === initDataHash(fields, botToken)
}

/** What an Ed25519 `signature` field looks like (64 bytes, base64url): the backend never verifies it. */
export const someSignature = (): string => randomBytes(64).toString('base64url')

export interface InitDataUser {
  readonly id: number
  readonly [field: string]: unknown
}

/**
 * A plain launch's initData for `user` at `authDate` (seconds): query_id, user, auth_date and, like
 * Bot API ≥ 8.0 clients, a `signature`.
 */
export const signInitDataFor = (user: InitDataUser, authDate: number, botToken: string, extra: InitDataFields = {}): string =>
  signFields(
    { query_id: `q${user.id}`, user: JSON.stringify(user), auth_date: String(authDate), signature: someSignature(), ...extra },
    botToken,
  )

/** The decoded fields of a raw initData string (a repeated field keeps its last value), with `user` parsed. */
export const readFields = (raw: string): { readonly fields: Record<string, string>; readonly user: any } => {
  const fields: Record<string, string> = {}
  for (const [k, v] of new URLSearchParams(raw)) fields[k] = v
  return { fields, user: fields.user === undefined ? undefined : JSON.parse(fields.user) }
}
