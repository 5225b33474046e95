import { versionAtLeast } from '../../core/domain/platform-version.ts'
import type { KeyValueStore } from '../../core/ports/key-value-store.port.ts'
import type { DeviceKeyStore, PlatformFeatures } from '../../core/ports/platform-features.port.ts'
import type { LaunchData } from '../../core/ports/platform.port.ts'
import type { SnapshotStorage } from '../../core/use-cases/dashboard-snapshot.ts'

/** The kept dashboard's key, in DeviceStorage and in localStorage. */
export const SNAPSHOT_KEY = 'axiom_dashboard'

/** The first client with DeviceStorage (telegram-features.ts's PLATFORM_DEVICE_STORAGE_VERSION). */
export const DEVICE_STORAGE_VERSION = '9.0'

export interface DashboardSnapshotStoreOptions {
  /** This launch's client; null outside Telegram. */
  readonly launch: Pick<LaunchData, 'version'> | null
  /** The platform's 7.2–9.x features (a chunk of their own, loaded on first use). */
  readonly features: () => Promise<PlatformFeatures>
  /** localStorage (adapters/browser/local-storage-key-value-store.ts). */
  readonly local: KeyValueStore
}

/**
 * Where the last dashboard is kept (core/domain/dashboard-snapshot.ts says what and whose): Telegram's
 * DeviceStorage on a 9.0+ client, which keeps it where the webview's localStorage does not last
 * (Telegram Desktop forgets it between runs, tdesktop#31051); localStorage on older clients and
 * wherever DeviceStorage refuses or does not answer. Kept in one place at a time: a write that
 * DeviceStorage took removes the localStorage copy, so an older one is never read instead.
 * `remove` clears both.
 */
export class DashboardSnapshotStore implements SnapshotStorage {
  private device: Promise<DeviceKeyStore | null> | null = null

  constructor(private readonly o: DashboardSnapshotStoreOptions) {}

  /** DeviceStorage, when this client has it (asked once: the features' chunk loads on the first call). */
  private deviceStorage(): Promise<DeviceKeyStore | null> {
    if (!this.o.launch || !versionAtLeast(this.o.launch.version, DEVICE_STORAGE_VERSION)) return Promise.resolve(null)
    this.device ??= this.o.features().then(
      (f) => (f.deviceStorage.supported ? f.deviceStorage : null),
      () => null,
    )
    return this.device
  }

  async read(): Promise<string | null> {
    const device = await this.deviceStorage()
    if (device) {
      const answer = await device.get(SNAPSHOT_KEY)
      // Nothing in DeviceStorage: one kept before the client's update may still be in localStorage.
      if (answer.kind === 'ok' && answer.value !== null) return answer.value
    }
    return this.o.local.get(SNAPSHOT_KEY)
  }

  write(text: string): void {
    void this.deviceStorage().then(async (device) => {
      const saved = device ? await device.set(SNAPSHOT_KEY, text) : null
      if (saved?.kind === 'ok') this.o.local.remove(SNAPSHOT_KEY)
      else this.o.local.set(SNAPSHOT_KEY, text)
    })
  }

  remove(): void {
    this.o.local.remove(SNAPSHOT_KEY)
    // Posted at once when DeviceStorage is already known (the wipe reloads the page right after).
    void this.deviceStorage().then((device) => device?.remove(SNAPSHOT_KEY))
  }
}

/**
 * The app's local storage, whose `clear` (the user-switch wipe, core/use-cases/authenticate.ts) also
 * removes the kept dashboard from DeviceStorage, as the session store's removal does for SecureStorage.
 */
export const clearingSnapshot = (storage: KeyValueStore, snapshots: Pick<SnapshotStorage, 'remove'>): KeyValueStore => ({
  get: (key) => storage.get(key),
  set: (key, value) => storage.set(key, value),
  remove: (key) => storage.remove(key),
  clear: () => {
    storage.clear()
    snapshots.remove()
  },
})
