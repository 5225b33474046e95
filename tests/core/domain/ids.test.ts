import fc from 'fast-check'
import { Schema } from 'effect'
import { describe, expect, it } from 'vitest'
import { Id, Mint, wireId } from '../../../core/index.ts'

const decodeId = Schema.decodeUnknownSync(Id)

describe('record ids', () => {
  it('decode 12 and "12" to the same id, equal with === and one key in a Set', () => {
    const fromNumber = decodeId(12)
    const fromString = decodeId('12')
    expect(fromNumber === fromString).toBe(true)
    expect(new Set([fromNumber, fromString]).size).toBe(1)
    expect(new Map([[fromNumber, 'a']]).get(fromString)).toBe('a')
  })

  it('are the same id whether a bond came from the list (number) or a live event (string)', () => {
    const fields = {
      status: 'active',
      created_at: 1_800_000_000,
      last_updated_at: null,
      total_amount: '100',
      daily_reward: '1',
      hold_bonus: 0,
      collective_bonus: 0,
      investment_bonus: 0,
      earned_reward: '0',
      max_reward: '30',
      amount_token: '100',
      amount_ton: '2',
      tariff_days: 30,
    }
    const listed = Schema.decodeUnknownSync(Mint)({ ...fields, id: 7 })
    const live = Schema.decodeUnknownSync(Mint)({ ...fields, id: '7' })
    expect(listed.id === live.id).toBe(true)
  })

  it('refuse what is not a number or a string', () => {
    for (const bad of [null, undefined, true, {}, [], Number.NaN, Number.POSITIVE_INFINITY]) expect(() => decodeId(bad)).toThrow()
  })

  it('law: a whole number and its digits are one id, and go back to the wire as that number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999_999_999 }), (n) => {
        const a = decodeId(n)
        const b = decodeId(`${n}`)
        expect(a).toBe(b)
        expect(wireId(a)).toBe(n)
      }),
    )
  })

  it('law: ids are equal exactly when their wire forms name the same record', () => {
    const wire = fc.oneof(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 50 }).map((n) => `${n}`), fc.constantFrom('a', 'b'))
    fc.assert(
      fc.property(wire, wire, (x, y) => {
        expect(decodeId(x) === decodeId(y)).toBe(`${x}` === `${y}`)
      }),
    )
  })

  it('law: a non-numeric string id is kept as it is, and sent back as it is', () => {
    fc.assert(
      fc.property(fc.string().filter((s) => !/^\d{1,15}$/.test(s)), (s) => {
        expect(decodeId(s)).toBe(s)
        expect(wireId(decodeId(s))).toBe(s)
      }),
    )
  })
})
