import { VISIBILITY_REFETCH_MIN_MS } from './constants.ts'

/** On becoming visible, refetch only if at least 10 s passed since the last refetch (spec §4). */
export const shouldRefetchOnVisible = (lastRefetchMs: number | null, nowMs: number): boolean =>
  lastRefetchMs === null || nowMs - lastRefetchMs >= VISIBILITY_REFETCH_MIN_MS
