/**
 * Dotted versions compared part by part as numbers ('10.0' ≥ '9.9'). A module with no imports: the
 * platform's features, loaded after the first paint, compare versions without pulling the constants
 * the entry holds into a chunk of their own.
 */
const parts = (v: string): number[] => v.split('.').map((p) => Number.parseInt(p, 10) || 0)

/** True when the dotted `version` is at least `min` ('8.0' ≥ '6.1'; '10.0' ≥ '9.9'). */
export const dottedAtLeast = (version: string, min: string): boolean => {
  const a = parts(version)
  const b = parts(min)
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0)
    if (d !== 0) return d > 0
  }
  return true
}
