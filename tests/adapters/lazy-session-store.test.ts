import { describe, expect, it } from 'vitest'
import { launchSessionStore } from '../../adapters/browser/lazy-session-store.ts'
import { mayKeepRefreshTokenSecurely, SECURE_STORAGE_VERSION } from '../../adapters/browser/secure-storage-clients.ts'
import * as secureModule from '../../adapters/browser/secure-session-store.ts'
import { SECURE_REFRESH_KEY } from '../../adapters/browser/secure-session-store.ts'
import { PLATFORM_DEVICE_STORAGE_VERSION } from '../../adapters/browser/telegram-features.ts'
import { STORAGE_KEYS } from '../../core/index.ts'
import { FakeTelegramDevice } from '../core/fakes/fake-telegram-device.ts'
import { MemoryKeyValueStore, MemorySessionStore } from '../core/fakes/memory-stores.ts'

const kept = (user: string, token: string) => JSON.stringify({ user, token })
const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

/**
 * The session store of a launch of user 42 on a `version` `platform` client, with the SecureStorage
 * store's module loaded when the test says (`release`), or failing to load.
 */
const open = (o: { device: FakeTelegramDevice; version?: string; platform?: string; cookies?: MemorySessionStore; storage?: MemoryKeyValueStore; loadFails?: boolean }) => {
  const cookies = o.cookies ?? new MemorySessionStore()
  const storage = o.storage ?? new MemoryKeyValueStore()
  let release: () => void = () => undefined
  const loads = { count: 0 }
  const features = { count: 0 }
  const store = launchSessionStore({
    cookies,
    features: () => {
      features.count++
      return Promise.resolve(o.device)
    },
    launch: { userId: '42', platform: o.platform ?? 'ios', version: o.version ?? o.device.version },
    storedUser: () => storage.get(STORAGE_KEYS.user),
    load: () => {
      loads.count++
      return new Promise<typeof secureModule>((resolve, reject) => {
        release = () => (o.loadFails ? reject(new Error('the chunk did not load')) : resolve(secureModule))
      })
    },
  })
  return { store, cookies, loads, features, release: () => release() }
}

describe('the launch’s session store: SecureStorage’s store loaded only where it can be used', () => {
  it('decides by the client as SecureSessionStore and the features do (9.0+, not a web client, a Telegram user)', () => {
    expect(SECURE_STORAGE_VERSION).toBe(PLATFORM_DEVICE_STORAGE_VERSION)
    expect(mayKeepRefreshTokenSecurely({ userId: '42', platform: 'ios', version: '9.0' })).toBe(true)
    expect(mayKeepRefreshTokenSecurely({ userId: '42', platform: 'android', version: '9.1' })).toBe(true)
    expect(mayKeepRefreshTokenSecurely({ userId: '42', platform: 'ios', version: '8.0' })).toBe(false)
    expect(mayKeepRefreshTokenSecurely({ userId: '42', platform: 'weba', version: '9.1' })).toBe(false)
    expect(mayKeepRefreshTokenSecurely({ userId: null, platform: 'ios', version: '9.1' })).toBe(false)
    expect(mayKeepRefreshTokenSecurely(null)).toBe(false)
  })

  it.each([
    ['8.0', 'ios'],
    ['9.1', 'webk'],
  ])('a %s %s client loads nothing, asks nothing of the device and keeps the cookies', async (version, platform) => {
    const device = new FakeTelegramDevice(version)
    const { store, cookies, loads, features } = open({ device, platform })
    await store.settled()
    store.set('refresh_token', 'refresh-1')
    expect(cookies.get('refresh_token')).toBe('refresh-1')
    expect(store.get('refresh_token')).toBe('refresh-1')
    expect(loads.count).toBe(0)
    expect(features.count).toBe(0)
    expect(device.secureRequests).toEqual([])
  })

  it('on a 9.1 client starts loading the store and the features at once, and sign-in waits for the read', async () => {
    const device = new FakeTelegramDevice('9.1')
    device.secure.set(SECURE_REFRESH_KEY, kept('42', 'refresh-1'))
    const { store, loads, features, release } = open({ device })
    expect(loads.count).toBe(1)
    expect(features.count).toBe(1)
    let settled = false
    void store.settled().then(() => (settled = true))
    await flush()
    expect(settled).toBe(false)
    release()
    await flush()
    expect(settled).toBe(true)
    expect(store.get('refresh_token')).toBe('refresh-1')
  })

  it('hands a refresh token set before the store loaded to it, which moves it into SecureStorage', async () => {
    const device = new FakeTelegramDevice('9.1')
    // This device's user is back with its auth_token: sign-in goes on at once and may refresh.
    const storage = new MemoryKeyValueStore({ [STORAGE_KEYS.user]: '42' })
    const cookies = new MemorySessionStore({ auth_token: 'access-1' })
    const { store, release } = open({ device, cookies, storage })
    await store.settled()
    store.set('refresh_token', 'refresh-2')
    expect(store.get('refresh_token')).toBe('refresh-2')
    release()
    await flush()
    await flush()
    expect(device.secure.get(SECURE_REFRESH_KEY)).toBe(kept('42', 'refresh-2'))
    expect(cookies.get('refresh_token')).toBeNull()
    expect(store.get('refresh_token')).toBe('refresh-2')
  })

  it('hands a removal made before the store loaded to it: the token SecureStorage kept is not used again, and is removed', async () => {
    const device = new FakeTelegramDevice('9.1')
    device.secure.set(SECURE_REFRESH_KEY, kept('42', 'refresh-old'))
    const storage = new MemoryKeyValueStore({ [STORAGE_KEYS.user]: '42' })
    const cookies = new MemorySessionStore({ auth_token: 'access-1' })
    const { store, release } = open({ device, cookies, storage })
    await store.settled()
    // Sign-in ended the session (its refresh was refused) before the store had loaded.
    store.remove('refresh_token')
    release()
    await flush()
    await flush()
    expect(store.get('refresh_token')).toBeNull()
    expect(device.secure.has(SECURE_REFRESH_KEY)).toBe(false)
  })

  it('keeps the cookies when the store’s chunk does not load', async () => {
    const device = new FakeTelegramDevice('9.1')
    const cookies = new MemorySessionStore({ refresh_token: 'refresh-1' })
    const { store, release } = open({ device, cookies, loadFails: true })
    release()
    await store.settled()
    expect(store.get('refresh_token')).toBe('refresh-1')
    store.set('refresh_token', 'refresh-2')
    expect(cookies.get('refresh_token')).toBe('refresh-2')
  })
})
