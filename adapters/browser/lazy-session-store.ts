import type { LaunchData } from '../../core/ports/platform.port.ts'
import type { SessionKey, SessionStore } from '../../core/ports/session-store.port.ts'
import type { SecureSessionOptions, SecureSessionStore } from './secure-session-store.ts'
import { mayKeepRefreshTokenSecurely } from './secure-storage-clients.ts'

/** The session store the app signs in with, and when sign-in may rely on it (SecureSessionStore's `settled`). */
export interface LaunchSessionStore extends SessionStore {
  settled(): Promise<void>
}

export interface LaunchSessionOptions extends SecureSessionOptions {
  readonly launch: Pick<LaunchData, 'userId' | 'platform' | 'version'> | null
  /** Loads adapters/browser/secure-session-store.ts (a chunk of its own). */
  readonly load: () => Promise<typeof import('./secure-session-store.ts')>
}

/**
 * The session's tokens for this launch. Where SecureStorage cannot be used (an older client, a web
 * client, no Telegram user) they are the spec's cookies, and nothing more loads. Else the SecureStorage
 * store (adapters/browser/secure-session-store.ts) loads beside the boot, with the platform's features
 * its read needs, both asked for at once; until it is there, the tokens are read from and written to
 * the cookies, as the store itself does while its read is under way, and each change of the refresh
 * token is handed to it once it has loaded (it then moves the newer one into SecureStorage). A store
 * that cannot load leaves the cookies in use, as a SecureStorage that does not answer does.
 */
export const launchSessionStore = (o: LaunchSessionOptions): LaunchSessionStore => {
  const cookies = o.cookies
  if (!mayKeepRefreshTokenSecurely(o.launch)) return { get: (k) => cookies.get(k), set: (k, v) => cookies.set(k, v), remove: (k) => cookies.remove(k), settled: () => Promise.resolve() }
  let store: SecureSessionStore | null = null
  /** The refresh token's changes before the store was there, in order. */
  const early: Array<(s: SessionStore) => void> = []
  // The read needs the features' chunk too: both download now, side by side.
  void o.features().catch(() => undefined)
  const loaded = o.load().then(
    (m) => {
      store = new m.SecureSessionStore(o)
      for (const change of early.splice(0)) change(store)
      return store
    },
    // Not loaded: the refresh token stays in its cookie, as where SecureStorage does not answer.
    () => null,
  )
  return {
    get: (key: SessionKey) => (store ?? cookies).get(key),
    set: (key: SessionKey, value: string) => {
      if (store) return store.set(key, value)
      cookies.set(key, value)
      if (key === 'refresh_token') early.push((s) => s.set(key, value))
    },
    remove: (key: SessionKey) => {
      if (store) return store.remove(key)
      cookies.remove(key)
      if (key === 'refresh_token') early.push((s) => s.remove(key))
    },
    settled: () => {
      // As the store's own: this device's user back with the auth_token needs no refresh token.
      if (!store && cookies.get('auth_token') !== null && o.storedUser() === o.launch?.userId) return Promise.resolve()
      return loaded.then((s) => s?.settled())
    },
  }
}
