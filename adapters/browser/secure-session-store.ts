import type { DeviceKeyStore, LaunchData, PlatformFeatures } from '../../core/ports/platform.port.ts'
import type { SessionKey, SessionStore } from '../../core/ports/session-store.port.ts'
// The web clients keep the cookie (the module that decides whether this one loads at all says which they are).
import { WEB_CLIENTS } from './secure-storage-clients.ts'

/** The refresh token's key in Telegram's SecureStorage. */
export const SECURE_REFRESH_KEY = 'axiom_refresh_token'

/** How long sign-in waits for SecureStorage's answer before it goes on without it (ms). */
export const SECURE_READ_WAIT_MS = 2_000

/** What is kept under SECURE_REFRESH_KEY: the token and the Telegram user it was issued to. */
interface Kept {
  readonly user: string
  readonly token: string
}

const encode = (kept: Kept): string => JSON.stringify(kept)

const decode = (value: string | null): Kept | null => {
  if (value === null) return null
  try {
    const v = JSON.parse(value) as Partial<Kept> | null
    return v && typeof v.user === 'string' && typeof v.token === 'string' && v.token !== '' ? { user: v.user, token: v.token } : null
  } catch {
    return null
  }
}

export interface SecureSessionOptions {
  /** The spec's cookies: the auth_token always, the refresh token wherever SecureStorage is not used. */
  readonly cookies: SessionStore
  /** The platform's 7.2–9.x features (loaded on first use). */
  readonly features: () => Promise<PlatformFeatures>
  /** This launch: its Telegram user and client; null outside Telegram. */
  readonly launch: Pick<LaunchData, 'userId' | 'platform'> | null
  /**
   * The Telegram user this device's app data belongs to (local storage's `user`), read when needed:
   * a refresh token found in a cookie is moved into SecureStorage only for that user (another
   * user's goes with the user-switch wipe).
   */
  readonly storedUser: () => string | null
  readonly waitMs?: number
}

/**
 * The session's tokens (spec §3), with the refresh token in Telegram's SecureStorage (the iOS
 * Keychain, the Android Keystore) on a 9.0+ client: a cookie can be read by any script on the page
 * and lives as long as the webview's cookie jar; SecureStorage is the device's. The auth_token stays
 * a cookie (the entry reads it before any other code has loaded, to ask for /user/me at once).
 * Older clients, the web clients and a page outside Telegram keep both cookies, as do clients whose
 * SecureStorage refuses or does not answer.
 *
 * The port is synchronous and SecureStorage is not: the token is read once at start, in parallel
 * with the boot (`settled` says when sign-in may rely on it), kept in memory, and each change is
 * written through. A refresh token left in a cookie (from before the client's upgrade, or written
 * while the read was under way) is moved into SecureStorage once and the cookie cleared. What is kept
 * carries the Telegram user it was issued to; another user's is never used, and is removed.
 */
export class SecureSessionStore implements SessionStore {
  private mode: 'reading' | 'secure' | 'cookies'
  /** The refresh token, in secure mode. */
  private token: string | null = null
  /** SecureStorage, once it has answered the read. */
  private secure: DeviceKeyStore | null = null
  /** What sign-in did while the read was under way: the newer word. */
  private changedWhileReading: 'set' | 'removed' | null = null
  private readonly read: Promise<void>

  constructor(private readonly o: SecureSessionOptions) {
    const launch = o.launch
    if (!launch?.userId || WEB_CLIENTS.has(launch.platform)) {
      this.mode = 'cookies'
      this.read = Promise.resolve()
      return
    }
    this.mode = 'reading'
    this.read = this.load(launch.userId).catch(() => this.useCookies())
  }

  /** Where the refresh token lives now: `reading` until SecureStorage has answered (tests, docs). */
  get where(): 'reading' | 'secure-storage' | 'cookies' {
    return this.mode === 'secure' ? 'secure-storage' : this.mode
  }

  /**
   * Resolves once sign-in may go on: at once when nothing is read, or when this device's user comes
   * back with the auth_token cookie (sign-in needs no refresh token then); else when SecureStorage
   * has answered, or after `waitMs` at most (sign-in then registers with the launch's init data).
   * Another user's launch waits for the answer too: the user-switch wipe must reach SecureStorage
   * before the page reloads.
   */
  settled(): Promise<void> {
    if (this.mode !== 'reading') return Promise.resolve()
    if (this.o.cookies.get('auth_token') !== null && this.o.storedUser() === this.o.launch?.userId) return Promise.resolve()
    return Promise.race([this.read, new Promise<void>((resolve) => setTimeout(resolve, this.o.waitMs ?? SECURE_READ_WAIT_MS))])
  }

  get(key: SessionKey): string | null {
    if (key === 'refresh_token' && this.mode === 'secure') return this.token
    return this.o.cookies.get(key)
  }

  set(key: SessionKey, value: string): void {
    if (key !== 'refresh_token' || this.mode === 'cookies') return this.o.cookies.set(key, value)
    if (this.mode === 'reading') {
      // Kept in the cookie meanwhile; moved into SecureStorage once the read has answered.
      this.changedWhileReading = 'set'
      return this.o.cookies.set(key, value)
    }
    this.token = value
    this.save(value)
  }

  remove(key: SessionKey): void {
    // The cookie goes in every mode: the user-switch wipe clears both places.
    this.o.cookies.remove(key)
    if (key !== 'refresh_token') return
    if (this.mode === 'reading') this.changedWhileReading = 'removed'
    this.token = null
    // Posted to the client at once (the wipe reloads the page right after).
    void this.secure?.remove(SECURE_REFRESH_KEY)
  }

  private async load(userId: string): Promise<void> {
    const store = (await this.o.features()).secureStorage
    if (!store.supported) return this.useCookies()
    const answer = await store.get(SECURE_REFRESH_KEY)
    if (answer.kind !== 'ok') return this.useCookies()
    this.secure = store
    const kept = decode(answer.value)
    if (answer.value !== null && kept?.user !== userId) void store.remove(SECURE_REFRESH_KEY)
    const cookie = this.o.cookies.get('refresh_token')
    if (this.changedWhileReading === 'removed') {
      this.mode = 'secure'
      this.token = null
      void store.remove(SECURE_REFRESH_KEY)
      return
    }
    // A cookie of this user's is the newer token: secure mode leaves none behind.
    if (cookie !== null && (this.changedWhileReading === 'set' || this.o.storedUser() === userId)) return this.moveCookie(store, userId, cookie)
    this.mode = 'secure'
    this.token = kept?.user === userId ? kept.token : null
  }

  /** Saves the cookie's token in SecureStorage and clears the cookie; if SecureStorage refuses, the cookie stays. */
  private async moveCookie(store: DeviceKeyStore, userId: string, token: string): Promise<void> {
    const saved = await store.set(SECURE_REFRESH_KEY, encode({ user: userId, token }))
    if (saved.kind !== 'ok') return this.useCookies()
    // Sign-in may have changed the token while it was being saved: the newer one is kept.
    const now = this.o.cookies.get('refresh_token')
    this.mode = 'secure'
    this.token = now
    if (now === null) void store.remove(SECURE_REFRESH_KEY)
    else if (now !== token) this.save(now)
    this.o.cookies.remove('refresh_token')
  }

  private save(token: string): void {
    const store = this.secure
    const userId = this.o.launch?.userId
    if (!store || !userId) return
    void store.set(SECURE_REFRESH_KEY, encode({ user: userId, token })).then((saved) => {
      // Refused: the token is kept in the cookie, as on an older client, rather than lost at the next start.
      if (saved.kind !== 'ok' && this.token === token) {
        this.mode = 'cookies'
        this.o.cookies.set('refresh_token', token)
      }
    })
  }

  private useCookies(): void {
    this.mode = 'cookies'
    this.token = null
  }
}
