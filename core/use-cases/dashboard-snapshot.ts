import { type DashboardFigures, type DashboardSnapshot, readSnapshot, snapshotText } from '../domain/dashboard-snapshot.ts'
import type { Clock } from '../ports/clock.port.ts'
import type { Platform } from '../ports/platform.port.ts'

/**
 * Where the last dashboard is kept on the device, as text under one key (in the browser,
 * adapters/browser/dashboard-snapshot-store.ts: Telegram's DeviceStorage on a 9.0+ client, else
 * localStorage). It never fails: a store that cannot read answers null, one that cannot write forgets.
 */
export interface SnapshotStorage {
  read(): Promise<string | null>
  write(text: string): void
  remove(): void
}

export interface DashboardSnapshots {
  /** This launch's user's snapshot, if one may be painted; another user's, an old or unreadable one is removed. */
  load(): Promise<DashboardSnapshot | null>
  /** Keeps what the dashboard shows now, for this launch's user (nothing without one). */
  save(figures: DashboardFigures): void
}

export interface DashboardSnapshotDeps {
  readonly storage: SnapshotStorage
  readonly platform: Pick<Platform, 'launch'>
  readonly clock: Clock
}

/** The last dashboard on the device, by core/domain/dashboard-snapshot.ts's rule, for this launch's Telegram user. */
export const dashboardSnapshots = ({ storage, platform, clock }: DashboardSnapshotDeps): DashboardSnapshots => ({
  async load() {
    const read = readSnapshot(await storage.read(), platform.launch()?.userId ?? null, clock.nowMs())
    if (read.kind === 'discard') storage.remove()
    return read.kind === 'show' ? read.snapshot : null
  },
  save(figures) {
    const userId = platform.launch()?.userId
    if (userId) storage.write(snapshotText(figures, userId, clock.nowMs()))
  },
})
