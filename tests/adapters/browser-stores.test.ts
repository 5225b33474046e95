// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import {
  AUTH_COOKIE_MAX_AGE_SECONDS,
  CookieSessionStore,
  type CookieDocument,
  REFRESH_COOKIE_MAX_AGE_SECONDS,
} from '../../adapters/browser/cookie-session-store.ts'
import { LocalStorageKeyValueStore } from '../../adapters/browser/local-storage-key-value-store.ts'
import { SECONDS_PER_DAY } from '../../core/domain/constants.ts'

const setPageUrl = (url: string) => (window as unknown as { happyDOM: { setURL(u: string): void } }).happyDOM.setURL(url)

const clearCookies = () => {
  for (const pair of document.cookie.split(';')) {
    const name = pair.split('=')[0]?.trim()
    if (name) document.cookie = `${name}=; Max-Age=0; Path=/`
  }
}

/** A document that records each cookie written and keeps them as a permissive browser would. */
class RecordingDocument implements CookieDocument {
  readonly writes: string[] = []
  private readonly jar = new Map<string, string>()
  readonly location: { readonly protocol: string }
  readonly defaultView: { readonly top: unknown }

  constructor(protocol: string, framed = false) {
    this.location = { protocol }
    const view: { top: unknown } = { top: null }
    view.top = framed ? {} : view
    this.defaultView = view
  }

  get cookie(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  set cookie(line: string) {
    this.writes.push(line)
    const [pair = ''] = line.split(';')
    const eq = pair.indexOf('=')
    if (/Max-Age=0;/.test(line)) this.jar.delete(pair.slice(0, eq))
    else this.jar.set(pair.slice(0, eq), pair.slice(eq + 1))
  }
}

afterEach(() => {
  clearCookies()
  localStorage.clear()
  setPageUrl('http://localhost:3000/')
})

describe('CookieSessionStore in a browser', () => {
  it('keeps both tokens as cookies that another store on the page reads back', () => {
    const store = new CookieSessionStore()
    store.set('auth_token', 'eyJhbGciOi.J9; =x')
    store.set('refresh_token', 'r-1')
    expect(document.cookie).toContain('auth_token=')
    expect(document.cookie).not.toContain('J9; =x')
    const again = new CookieSessionStore()
    expect(again.get('auth_token')).toBe('eyJhbGciOi.J9; =x')
    expect(again.get('refresh_token')).toBe('r-1')
  })

  it('removes one token and leaves the other', () => {
    const store = new CookieSessionStore()
    store.set('auth_token', 'a')
    store.set('refresh_token', 'r')
    store.remove('auth_token')
    expect(new CookieSessionStore().get('auth_token')).toBeNull()
    expect(new CookieSessionStore().get('refresh_token')).toBe('r')
  })

  it('does not mistake another cookie for a token', () => {
    document.cookie = 'my_auth_token=x; Path=/'
    expect(new CookieSessionStore().get('auth_token')).toBeNull()
  })

  it('works on an https page, where the cookies are Secure', () => {
    setPageUrl('https://app.example.com/')
    const store = new CookieSessionStore()
    store.set('auth_token', 'secure-a')
    expect(new CookieSessionStore().get('auth_token')).toBe('secure-a')
  })
})

describe('CookieSessionStore attributes', () => {
  it('writes a day-long auth_token and a 30-day refresh_token on Path=/, SameSite=Lax, over http', () => {
    const doc = new RecordingDocument('http:')
    const store = new CookieSessionStore(doc)
    store.set('auth_token', 'a b')
    store.set('refresh_token', 'r')
    expect(AUTH_COOKIE_MAX_AGE_SECONDS).toBe(SECONDS_PER_DAY)
    expect(REFRESH_COOKIE_MAX_AGE_SECONDS).toBe(30 * SECONDS_PER_DAY)
    expect(doc.writes).toEqual([
      `auth_token=a%20b; Max-Age=${SECONDS_PER_DAY}; Path=/; SameSite=Lax`,
      `refresh_token=r; Max-Age=${30 * SECONDS_PER_DAY}; Path=/; SameSite=Lax`,
    ])
  })

  it('adds Secure on https, and expires the cookie to remove it', () => {
    const doc = new RecordingDocument('https:')
    const store = new CookieSessionStore(doc)
    store.set('refresh_token', 'r')
    store.remove('refresh_token')
    expect(doc.writes).toEqual([
      `refresh_token=r; Max-Age=${30 * SECONDS_PER_DAY}; Path=/; SameSite=Lax; Secure`,
      'refresh_token=; Max-Age=0; Path=/; SameSite=Lax; Secure',
    ])
    expect(store.get('refresh_token')).toBeNull()
  })

  it('uses a partitioned SameSite=None cookie inside a cross-site frame (Telegram Web)', () => {
    const doc = new RecordingDocument('https:', true)
    new CookieSessionStore(doc).set('auth_token', 'a')
    expect(doc.writes).toEqual([`auth_token=a; Max-Age=${SECONDS_PER_DAY}; Path=/; SameSite=None; Secure; Partitioned`])
  })

  it('keeps a token in memory for the page when the browser refuses the cookie', () => {
    const refusing: CookieDocument = { cookie: '', location: { protocol: 'https:' } }
    Object.defineProperty(refusing, 'cookie', { get: () => '', set: () => {} })
    const store = new CookieSessionStore(refusing)
    store.set('auth_token', 'kept')
    expect(store.get('auth_token')).toBe('kept')
    store.remove('auth_token')
    expect(store.get('auth_token')).toBeNull()
  })
})

describe('LocalStorageKeyValueStore', () => {
  it('keeps values in localStorage, where the next page load finds them', () => {
    const store = new LocalStorageKeyValueStore()
    store.set('user', '42')
    store.set('lastRefCount', '3')
    store.remove('lastRefCount')
    expect(localStorage.getItem('user')).toBe('42')
    expect(new LocalStorageKeyValueStore().get('user')).toBe('42')
    expect(new LocalStorageKeyValueStore().get('lastRefCount')).toBeNull()
    store.clear()
    expect(localStorage.length).toBe(0)
    expect(store.inMemory).toBe(false)
  })

  it('falls back to memory when storage cannot even be reached (Safari private mode)', () => {
    const store = new LocalStorageKeyValueStore(() => {
      throw new DOMException('The operation is insecure.', 'SecurityError')
    })
    expect(store.get('user')).toBeNull()
    store.set('user', '42')
    expect(store.get('user')).toBe('42')
    store.clear()
    expect(store.get('user')).toBeNull()
    expect(store.inMemory).toBe(true)
  })

  it('keeps what storage already held when writes start failing', () => {
    localStorage.setItem('user', '42')
    const full = {
      get length() {
        return localStorage.length
      },
      key: (i: number) => localStorage.key(i),
      getItem: (k: string) => localStorage.getItem(k),
      setItem: () => {
        throw new DOMException('Quota exceeded', 'QuotaExceededError')
      },
      removeItem: (k: string) => localStorage.removeItem(k),
      clear: () => localStorage.clear(),
    } as Storage
    const store = new LocalStorageKeyValueStore(() => full)
    store.set('lastRefCount', '5')
    expect(store.get('lastRefCount')).toBe('5')
    expect(store.get('user')).toBe('42')
  })
})
