import { SECONDS_PER_DAY } from '../../core/domain/constants.ts'
import type { SessionKey, SessionStore } from '../../core/ports/session-store.port.ts'

/** The cookie outlives the access token (which the server expires sooner); a stale one is refreshed. */
export const AUTH_COOKIE_MAX_AGE_SECONDS = SECONDS_PER_DAY
export const REFRESH_COOKIE_MAX_AGE_SECONDS = 30 * SECONDS_PER_DAY

const MAX_AGE: Record<SessionKey, number> = {
  auth_token: AUTH_COOKIE_MAX_AGE_SECONDS,
  refresh_token: REFRESH_COOKIE_MAX_AGE_SECONDS,
}

/** The parts of `document` the store touches; a plain object with a `cookie` setter is a fake. */
export interface CookieDocument {
  cookie: string
  readonly location: { readonly protocol: string } | null
  readonly defaultView?: { readonly top: unknown } | null
}

/**
 * The session's tokens in the cookies auth_token and refresh_token (spec §3), on Path=/.
 *
 * SameSite=Lax where the app is the top-level page (Telegram's native clients): the tokens go
 * out only with same-site requests, yet a link into the app still carries them. Strict would
 * buy nothing here, since the tokens travel in the Authorization header, not as cookies.
 * Inside a cross-site frame (Telegram Web hosts the app in an iframe) browsers refuse Lax
 * cookies, so there the cookie is SameSite=None; Secure; Partitioned, kept apart per host site.
 * Secure whenever the page is https. Where the browser refuses the cookie altogether, the
 * token is kept in memory for the life of the page.
 */
export class CookieSessionStore implements SessionStore {
  private readonly unsaved = new Map<SessionKey, string>()

  constructor(private readonly doc: CookieDocument = document) {}

  get(key: SessionKey): string | null {
    return this.read(key) ?? this.unsaved.get(key) ?? null
  }

  set(key: SessionKey, value: string): void {
    this.doc.cookie = `${key}=${encodeURIComponent(value)}; Max-Age=${MAX_AGE[key]}; ${this.attributes()}`
    if (this.read(key) === value) this.unsaved.delete(key)
    else this.unsaved.set(key, value)
  }

  remove(key: SessionKey): void {
    this.unsaved.delete(key)
    this.doc.cookie = `${key}=; Max-Age=0; ${this.attributes()}`
  }

  private attributes(): string {
    const https = this.doc.location?.protocol === 'https:'
    const view = this.doc.defaultView
    const framed = view != null && view.top !== view
    if (https && framed) return 'Path=/; SameSite=None; Secure; Partitioned'
    return https ? 'Path=/; SameSite=Lax; Secure' : 'Path=/; SameSite=Lax'
  }

  private read(key: SessionKey): string | null {
    return readCookie(this.doc, key)
  }
}

/** One cookie's value (decoded), or null when it is not set or empty. */
export const readCookie = (doc: Pick<CookieDocument, 'cookie'>, key: SessionKey): string | null => {
  for (const pair of doc.cookie.split(';')) {
    const eq = pair.indexOf('=')
    if (eq < 0 || pair.slice(0, eq).trim() !== key) continue
    const raw = pair.slice(eq + 1).trim()
    if (raw === '') return null
    try {
      return decodeURIComponent(raw)
    } catch {
      return raw
    }
  }
  return null
}
