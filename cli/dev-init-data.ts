import { signInitData } from '../adapters/node/telegram-init-data.ts'

/**
 * The reference backend's development bot token (docs/api.md, "Running it"). It is not a secret:
 * the local stack signs and checks Telegram init data with it. Kept here rather than imported from
 * server/: the CLI is a client of the backend, never a part of it; tests/cli checks that the two stay equal.
 */
export const DEV_BOT_TOKEN = '7000000001:AXIOM-dev-bot-token-not-secret'

export interface DevUser {
  readonly id: number
  readonly firstName?: string
  readonly startParam?: string | null
}

/** Init data for `user`, signed with `botToken` as Telegram signs it: for local development against the reference backend. */
export const signDevInitData = (user: DevUser, botToken: string, authDateSeconds: number): string =>
  signInitData(
    {
      auth_date: String(authDateSeconds),
      query_id: `cli${user.id}`,
      // No `signature`: that is Telegram's Ed25519 signature for third parties, which only Telegram can make.
      user: JSON.stringify({ id: user.id, first_name: user.firstName ?? `User ${user.id}`, language_code: 'en' }),
      ...(user.startParam ? { start_param: user.startParam } : {}),
    },
    botToken,
  )

export interface InitDataFacts {
  readonly userId: string
  readonly startParam: string | null
}

/** The user id and start parameter of a raw init data string, or null when it is not init data. */
export const readInitData = (raw: string): InitDataFacts | null => {
  let params: URLSearchParams
  try {
    params = new URLSearchParams(raw.trim())
  } catch {
    return null
  }
  if (!params.get('hash') || !params.get('auth_date')) return null
  try {
    const user: unknown = JSON.parse(params.get('user') ?? '')
    const id = (user as { id?: unknown } | null)?.id
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) return null
    return { userId: String(id), startParam: params.get('start_param') || null }
  } catch {
    return null
  }
}
