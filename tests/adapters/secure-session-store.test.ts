import { describe, expect, it } from 'vitest'
import { SECURE_REFRESH_KEY, SecureSessionStore } from '../../adapters/browser/secure-session-store.ts'
import { STORAGE_KEYS } from '../../core/index.ts'
import { authenticate } from '../../core/use-cases/authenticate.ts'
import { FakeAxiomApi } from '../core/fakes/fake-axiom-api.ts'
import { FakePlatform, launchData } from '../core/fakes/fake-platform.ts'
import { FakeTelegramDevice } from '../core/fakes/fake-telegram-device.ts'
import { MemoryKeyValueStore, MemorySessionStore } from '../core/fakes/memory-stores.ts'
import { succeed } from '../core/fakes/run.ts'

/** What the store keeps in SecureStorage: the token with the Telegram user it was issued to. */
const kept = (user: string, token: string) => JSON.stringify({ user, token })

/**
 * The session store of a launch of Telegram user `user` on a client of `version` and `platform`,
 * over that client's SecureStorage (`device`, which outlives a launch) and the page's cookies.
 */
const open = (o: {
  device: FakeTelegramDevice
  cookies?: MemorySessionStore
  storage?: MemoryKeyValueStore
  user?: string
  platform?: string
  waitMs?: number
  features?: () => Promise<FakeTelegramDevice>
}) => {
  const cookies = o.cookies ?? new MemorySessionStore()
  const storage = o.storage ?? new MemoryKeyValueStore()
  const user = o.user ?? '42'
  const store = new SecureSessionStore({
    cookies,
    features: o.features ?? (() => Promise.resolve(o.device)),
    launch: { userId: user, platform: o.platform ?? 'ios' },
    storedUser: () => storage.get(STORAGE_KEYS.user),
    ...(o.waitMs !== undefined ? { waitMs: o.waitMs } : {}),
  })
  return { store, cookies, storage }
}

/** Lets the store's writes to SecureStorage (fire and forget) land. */
const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('SecureSessionStore: the refresh token in Telegram’s SecureStorage on 9.0+ clients', () => {
  it('on a 9.1 phone client keeps the refresh token in SecureStorage, not in a cookie; the auth_token stays a cookie', async () => {
    const device = new FakeTelegramDevice('9.1')
    const { store, cookies } = open({ device })
    await store.settled()
    expect(store.where).toBe('secure-storage')
    store.set('auth_token', 'access-1')
    store.set('refresh_token', 'refresh-1')
    await flush()
    expect(device.secure.get(SECURE_REFRESH_KEY)).toBe(kept('42', 'refresh-1'))
    expect(cookies.get('refresh_token')).toBeNull()
    expect(cookies.get('auth_token')).toBe('access-1')
    expect(store.get('refresh_token')).toBe('refresh-1')

    // The next start reads it back (with the auth_token cookie there, sign-in does not wait for it).
    const next = open({ device, cookies })
    await next.store.settled()
    await flush()
    expect(next.store.get('refresh_token')).toBe('refresh-1')
  })

  it.each([
    ['8.0', 'ios'],
    ['7.0', 'android'],
    ['9.1', 'weba'],
    ['9.1', 'webk'],
  ])('a %s %s client keeps the spec’s cookies, and its SecureStorage is not asked', async (version, platform) => {
    const device = new FakeTelegramDevice(version)
    const { store, cookies } = open({ device, platform })
    await store.settled()
    expect(store.where).toBe('cookies')
    store.set('refresh_token', 'refresh-1')
    expect(cookies.get('refresh_token')).toBe('refresh-1')
    expect(store.get('refresh_token')).toBe('refresh-1')
    expect(device.secureRequests).toEqual([])
  })

  it('a client whose SecureStorage fails keeps the cookie', async () => {
    const device = new FakeTelegramDevice('9.1')
    device.secureFails = 'UNSUPPORTED'
    const { store, cookies } = open({ device, cookies: new MemorySessionStore({ refresh_token: 'refresh-1' }) })
    await store.settled()
    expect(store.where).toBe('cookies')
    expect(store.get('refresh_token')).toBe('refresh-1')
    expect(cookies.get('refresh_token')).toBe('refresh-1')
  })

  it('moves a refresh token left in a cookie from before the upgrade into SecureStorage once, and clears the cookie', async () => {
    const device = new FakeTelegramDevice('9.1')
    const storage = new MemoryKeyValueStore({ [STORAGE_KEYS.user]: '42' })
    const cookies = new MemorySessionStore({ auth_token: 'access-1', refresh_token: 'refresh-1' })
    const first = open({ device, cookies, storage })
    await flush()
    await flush()
    expect(first.store.where).toBe('secure-storage')
    expect(device.secure.get(SECURE_REFRESH_KEY)).toBe(kept('42', 'refresh-1'))
    expect(cookies.get('refresh_token')).toBeNull()
    expect(cookies.get('auth_token')).toBe('access-1')
    expect(first.store.get('refresh_token')).toBe('refresh-1')

    const next = open({ device, cookies, storage })
    await flush()
    expect(next.store.get('refresh_token')).toBe('refresh-1')
    expect(device.secureRequests.filter((r) => r.startsWith('set '))).toHaveLength(1)
  })

  it('never moves or uses another user’s token: a cookie of the stored user’s, a SecureStorage entry of another', async () => {
    const device = new FakeTelegramDevice('9.1')
    // The device's app data are user 7's; user 42 opens the app: the cookie waits for the wipe.
    const storage = new MemoryKeyValueStore({ [STORAGE_KEYS.user]: '7' })
    const cookies = new MemorySessionStore({ refresh_token: 'refresh-of-7' })
    const a = open({ device, cookies, storage })
    await a.store.settled()
    expect(a.store.get('refresh_token')).toBeNull()
    expect(device.secure.has(SECURE_REFRESH_KEY)).toBe(false)

    // SecureStorage holding user 7's token (a device shared between accounts): not used, removed.
    device.secure.set(SECURE_REFRESH_KEY, kept('7', 'refresh-of-7'))
    const b = open({ device, storage: new MemoryKeyValueStore({ [STORAGE_KEYS.user]: '42' }) })
    await b.store.settled()
    await flush()
    expect(b.store.get('refresh_token')).toBeNull()
    expect(device.secure.has(SECURE_REFRESH_KEY)).toBe(false)
  })

  it.each([
    ['once SecureStorage has answered', true],
    ['while SecureStorage is still being read (it did not answer within waitMs)', false],
  ])('the user-switch wipe %s clears both the cookie and SecureStorage, and the next user registers', async (_, answered) => {
    const device = new FakeTelegramDevice('9.1')
    const cookies = new MemorySessionStore({ auth_token: 'access-of-7', refresh_token: 'stale-cookie-of-7' })
    device.secure.set(SECURE_REFRESH_KEY, kept('42', 'refresh-of-42'))
    const storage = new MemoryKeyValueStore({ [STORAGE_KEYS.user]: '7' })
    let load: (d: FakeTelegramDevice) => void = () => {}
    const { store } = open({
      device,
      cookies,
      storage,
      user: '42',
      waitMs: 5,
      ...(answered ? {} : { features: () => new Promise<FakeTelegramDevice>((resolve) => (load = resolve)) }),
    })
    // Another user's data on the device: sign-in waits for SecureStorage even with an auth_token cookie.
    await store.settled()
    expect(store.where).toBe(answered ? 'secure-storage' : 'reading')
    const platform = new FakePlatform(launchData({ userId: '42', version: '9.1' }))
    const api = new FakeAxiomApi()
    expect(await succeed(authenticate({ api, session: store, storage, platform }))).toBe('reloading')
    expect(platform.reloads).toBe(1)
    if (answered) expect(device.secureRequests.at(-1)).toBe(`remove ${SECURE_REFRESH_KEY}`)
    else load(device)
    await flush()
    expect(cookies.get('auth_token')).toBeNull()
    expect(cookies.get('refresh_token')).toBeNull()
    expect(device.secure.has(SECURE_REFRESH_KEY)).toBe(false)

    // After the reload: nothing to refresh with, so user 42 registers.
    const after = open({ device, cookies, storage, user: '42' })
    await after.store.settled()
    expect(await succeed(authenticate({ api, session: after.store, storage, platform }))).toBe('authenticated')
    expect(api.calls.map((c) => c.method)).toEqual(['register'])
    await flush()
    expect(device.secure.get(SECURE_REFRESH_KEY)).toBe(kept('42', 'registered-refresh'))
  })

  it('sign-in waits for the read only when it needs it (no auth_token cookie of this user), and at most waitMs', async () => {
    const device = new FakeTelegramDevice('9.1')
    device.secure.set(SECURE_REFRESH_KEY, kept('42', 'refresh-1'))
    let load: (d: FakeTelegramDevice) => void = () => {}
    const slow = () => new Promise<FakeTelegramDevice>((resolve) => (load = resolve))

    const withCookie = open({
      device,
      cookies: new MemorySessionStore({ auth_token: 'access-1' }),
      storage: new MemoryKeyValueStore({ [STORAGE_KEYS.user]: '42' }),
      features: slow,
    })
    let settled = false
    void withCookie.store.settled().then(() => (settled = true))
    await flush()
    expect(settled).toBe(true)

    const without = open({ device, features: slow, waitMs: 60_000 })
    settled = false
    void without.store.settled().then(() => (settled = true))
    await flush()
    expect(settled).toBe(false)
    expect(without.store.get('refresh_token')).toBeNull()
    load(device)
    await flush()
    expect(settled).toBe(true)
    expect(without.store.get('refresh_token')).toBe('refresh-1')

    const never = open({ device, features: () => new Promise(() => {}), waitMs: 5 })
    await never.store.settled()
    expect(never.store.where).toBe('reading')
  })

  it('a token set while the read was under way is the one kept', async () => {
    const device = new FakeTelegramDevice('9.1')
    device.secure.set(SECURE_REFRESH_KEY, kept('42', 'older'))
    let load: (d: FakeTelegramDevice) => void = () => {}
    const { store, cookies } = open({ device, features: () => new Promise((resolve) => (load = resolve)) })
    store.set('refresh_token', 'newer')
    load(device)
    await store.settled()
    await flush()
    expect(store.get('refresh_token')).toBe('newer')
    expect(device.secure.get(SECURE_REFRESH_KEY)).toBe(kept('42', 'newer'))
    expect(cookies.get('refresh_token')).toBeNull()
  })
})
