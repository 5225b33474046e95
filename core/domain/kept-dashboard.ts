/**
 * The part of the kept dashboard's rule (core/domain/dashboard-snapshot.ts) the ui needs: how many
 * bonds are kept, and how its age reads.
 */

/** The bonds kept: the top of the dashboard's list, what the first screens show; the rest comes with the fresh list. */
export const SNAPSHOT_MAX_BONDS = 50

/** How old a snapshot reads on its mark: seconds under a minute, then minutes, hours, days. */
export type SnapshotAge = { readonly unit: 's' | 'min' | 'h' | 'd'; readonly n: number }

export const snapshotAge = (savedAtMs: number, nowMs: number): SnapshotAge => {
  const s = Math.max(0, Math.floor((nowMs - savedAtMs) / 1000))
  if (s < 60) return { unit: 's', n: s }
  if (s < 3_600) return { unit: 'min', n: Math.floor(s / 60) }
  if (s < 86_400) return { unit: 'h', n: Math.floor(s / 3_600) }
  return { unit: 'd', n: Math.floor(s / 86_400) }
}
