import { describe, expect, it } from 'vitest'
import { clearingSnapshot, DashboardSnapshotStore, SNAPSHOT_KEY } from '../../adapters/browser/dashboard-snapshot-store.ts'
import type { DeviceKeyStore, PlatformFeatures, StorageResult } from '../../core/index.ts'
import { noPlatformFeatures } from '../../core/ports/platform-features.port.ts'
import { MemoryKeyValueStore } from '../core/fakes/memory-stores.ts'

/** A 9.x client's DeviceStorage, as Telegram's docs describe it: strings by key; it may refuse every request. */
class FakeDeviceStorage implements DeviceKeyStore {
  readonly supported = true
  readonly keys = new Map<string, string>()
  refuses = false
  readonly asked: string[] = []
  private answer<T>(op: string, value: T): Promise<StorageResult<T>> {
    this.asked.push(op)
    return Promise.resolve(this.refuses ? { kind: 'failed', error: 'UNKNOWN_ERROR' } : { kind: 'ok', value })
  }
  get(key: string) {
    return this.answer(`get ${key}`, this.keys.get(key) ?? null)
  }
  set(key: string, value: string) {
    if (!this.refuses) this.keys.set(key, value)
    return this.answer(`set ${key}`, undefined)
  }
  remove(key: string) {
    if (!this.refuses) this.keys.delete(key)
    return this.answer(`remove ${key}`, undefined)
  }
  clear() {
    if (!this.refuses) this.keys.clear()
    return this.answer('clear', undefined)
  }
}

const over = (version: string, device = new FakeDeviceStorage(), local = new MemoryKeyValueStore()) => {
  const features: PlatformFeatures = { ...noPlatformFeatures, deviceStorage: device }
  return { store: new DashboardSnapshotStore({ launch: { version }, features: () => Promise.resolve(features), local }), device, local }
}

/** Lets the store's writes (fire and forget) land. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('DashboardSnapshotStore', () => {
  it('on a 9.0+ client keeps the dashboard in DeviceStorage, not in localStorage', async () => {
    const { store, device, local } = over('9.1')
    local.set(SNAPSHOT_KEY, 'from before the update')
    store.write('kept')
    await settle()
    expect(device.keys.get(SNAPSHOT_KEY)).toBe('kept')
    expect(local.get(SNAPSHOT_KEY)).toBeNull()
    expect(await store.read()).toBe('kept')
  })

  it('on a 9.0+ client reads a copy kept in localStorage before the update while DeviceStorage has none', async () => {
    const { store, local } = over('9.0')
    local.set(SNAPSHOT_KEY, 'from 8.0')
    expect(await store.read()).toBe('from 8.0')
  })

  it('keeps it in localStorage where DeviceStorage refuses', async () => {
    const device = new FakeDeviceStorage()
    device.refuses = true
    const { store, local } = over('9.1', device)
    store.write('kept')
    await settle()
    expect(local.get(SNAPSHOT_KEY)).toBe('kept')
    expect(await store.read()).toBe('kept')
  })

  it('on an older client asks DeviceStorage nothing', async () => {
    const { store, device, local } = over('8.0')
    store.write('kept')
    await settle()
    expect(local.get(SNAPSHOT_KEY)).toBe('kept')
    expect(await store.read()).toBe('kept')
    store.remove()
    await settle()
    expect(local.get(SNAPSHOT_KEY)).toBeNull()
    expect(device.asked).toEqual([])
  })

  it('the user-switch wipe (the local storage cleared) removes it from DeviceStorage too', async () => {
    const { store, device, local } = over('9.1')
    store.write('kept')
    await settle()
    local.set('user', '42')
    clearingSnapshot(local, store).clear()
    await settle()
    expect(device.keys.has(SNAPSHOT_KEY)).toBe(false)
    expect(local.get('user')).toBeNull()
  })
})
