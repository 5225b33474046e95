import { Effect } from 'effect'
import { type AxiomApi, authenticate, makeHttpAxiomApi } from '../core/index.ts'
import { FetchHttpTransport } from '../adapters/shared/fetch-http-transport.ts'
import { InMemoryKeyValueStore } from '../adapters/shared/in-memory-key-value-store.ts'
import { InMemorySessionStore } from '../adapters/shared/in-memory-session-store.ts'
import { signInitData as signFields } from '../adapters/node/telegram-init-data.ts'

/** The Telegram user the bot talks to, as an update names them. */
export interface ChatUser {
  readonly id: number
  readonly first_name: string
  readonly last_name?: string
  readonly username?: string
  readonly language_code?: string
}

/**
 * Init data for `user`, signed with the bot token the way Telegram signs a mini app's
 * (core.telegram.org/bots/webapps, "Validating data received via the Mini App"). The bot holds the
 * token, so it may speak for the user it is talking to, and the backend checks it as any sign-in.
 */
export const signInitData = (user: ChatUser, botToken: string, authDateS: number): string => {
  const fields: Record<string, string> = {
    auth_date: String(authDateS),
    query_id: `bot${user.id}`,
    user: JSON.stringify({ id: user.id, first_name: user.first_name, ...(user.last_name ? { last_name: user.last_name } : {}), ...(user.username ? { username: user.username } : {}), ...(user.language_code ? { language_code: user.language_code } : {}) }),
  }
  return signFields(fields, botToken)
}

export interface UserBackend {
  /** The core's API client for this user, signed in (the core's authenticate use case) before each use. */
  signedIn(): Promise<AxiomApi>
  /** The session's bearer token (for the one call the core's API has no method for). */
  token(): string | null
}

/** Per Telegram user: a session of their own against AXIOM_API, as the mini app has. */
export const backendFor = (origin: string, botToken: string, nowS: () => number = () => Math.floor(Date.now() / 1000)) => {
  const users = new Map<number, UserBackend>()
  return (user: ChatUser): UserBackend => {
    const known = users.get(user.id)
    if (known) return known
    const session = new InMemorySessionStore()
    const storage = new InMemoryKeyValueStore()
    const api = makeHttpAxiomApi({ http: new FetchHttpTransport({ origin }), session })
    const platform = {
      // A fresh signature on each sign-in: init data ages out (the backend's initDataMaxAgeS).
      launch: () => ({
        initData: signInitData(user, botToken, nowS()),
        userId: String(user.id),
        languageCode: user.language_code ?? 'en',
        // The bot never signs a user in with a start parameter: the app does, from the link the bot sends.
        startParam: null,
        version: '9.0',
        platform: 'bot',
      }),
      reload: () => {},
    }
    const backend: UserBackend = {
      signedIn: async () => {
        await Effect.runPromise(authenticate({ api, session, storage, platform }))
        return api
      },
      token: () => session.get('auth_token'),
    }
    users.set(user.id, backend)
    return backend
  }
}
