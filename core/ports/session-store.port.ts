export type SessionKey = 'auth_token' | 'refresh_token'

/** Where the session's tokens live: cookies in the browser, a file in the CLI. */
export interface SessionStore {
  get(key: SessionKey): string | null
  set(key: SessionKey, value: string): void
  remove(key: SessionKey): void
}
