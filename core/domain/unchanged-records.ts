/**
 * A list read again, with what did not change kept as it was: each record whose fields all equal
 * those of the record with its id in `previous` is that previous record itself, and when nothing at
 * all changed (the same records, in the same order) the answer is `previous`. A view of the list then
 * sees a re-read that brought nothing new as no change at all (the socket's greeting re-reads the
 * bonds on every open), and a row whose record is the same object need not be drawn again.
 * Fields are compared with `===`: a record holding an object or an array is never kept, only replaced.
 */
export const keepUnchanged = <R extends { readonly id: unknown }>(previous: ReadonlyArray<R>, next: ReadonlyArray<R>): R[] => {
  const byId = new Map(previous.map((r) => [r.id, r]))
  let same = previous.length === next.length
  const kept = next.map((r, i) => {
    const old = byId.get(r.id)
    const keep = old !== undefined && sameFields(old, r) ? old : r
    if (keep !== previous[i]) same = false
    return keep
  })
  return same ? (previous as R[]) : kept
}

const sameFields = (a: object, b: object): boolean => {
  const keys = Object.keys(b)
  if (Object.keys(a).length !== keys.length) return false
  return keys.every((k) => {
    const v = (b as Record<string, unknown>)[k]
    return (v === null || typeof v !== 'object') && (a as Record<string, unknown>)[k] === v
  })
}
