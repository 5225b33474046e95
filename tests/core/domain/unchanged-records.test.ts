import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { keepUnchanged } from '../../../core/index.ts'

/** Records as the bond lists hold them: an id and plain fields. */
interface Rec {
  readonly id: number
  readonly status: string
  readonly amount_token: number
}
const rec = fc.record({ id: fc.integer({ min: 1, max: 8 }), status: fc.constantFrom('pending', 'active', 'completed'), amount_token: fc.integer({ min: 0, max: 3 }) })
/** A list with distinct ids, as the backend answers. */
const list = fc.uniqueArray(rec, { selector: (r) => r.id, maxLength: 8 })

describe('keepUnchanged: a list read again keeps the records that did not change', () => {
  it('answers the new list, value for value, keeping each unchanged record as the same object', () => {
    fc.assert(
      fc.property(list, list, (previous, next) => {
        const out = keepUnchanged<Rec>(previous, next)
        expect(out).toEqual(next)
        out.forEach((r, i) => {
          const old = previous.find((p) => p.id === r.id)
          const unchanged = old !== undefined && old.status === next[i]!.status && old.amount_token === next[i]!.amount_token
          expect(r).toBe(unchanged ? old : next[i])
        })
      }),
    )
  })

  it('answers the previous list itself when nothing changed, even as fresh copies', () => {
    fc.assert(
      fc.property(list, (previous) => {
        const copies = previous.map((r) => ({ ...r }))
        expect(keepUnchanged<Rec>(previous, copies)).toBe(previous)
      }),
    )
  })

  it('answers a new list when one record changed, came, went or moved', () => {
    const a = { id: 1, status: 'active', amount_token: 5 }
    const b = { id: 2, status: 'pending', amount_token: 3 }
    const previous = [a, b]
    const changed = keepUnchanged<Rec>(previous, [{ ...a }, { ...b, status: 'active' }])
    expect(changed).not.toBe(previous)
    expect(changed[0]).toBe(a)
    expect(changed[1]).toEqual({ id: 2, status: 'active', amount_token: 3 })
    expect(keepUnchanged<Rec>(previous, [{ ...a }])).toEqual([a])
    expect(keepUnchanged<Rec>(previous, [{ ...a }])).not.toBe(previous)
    expect(keepUnchanged<Rec>(previous, [{ ...b }, { ...a }])).not.toBe(previous)
    expect(keepUnchanged<Rec>(previous, [{ ...a }, { ...b }, { id: 3, status: 'active', amount_token: 1 }])).toHaveLength(3)
  })

  it('never keeps a record with a field more or less, or one holding an object', () => {
    const a = { id: 1, status: 'active', amount_token: 5 }
    const more = { ...a, extra: 1 }
    expect(keepUnchanged<Rec>([a], [more])[0]).toBe(more)
    const withObject = { id: 1, meta: { x: 1 } }
    const again = { id: 1, meta: withObject.meta }
    expect(keepUnchanged([withObject], [again])[0]).toBe(again)
  })
})
