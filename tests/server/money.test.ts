import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatFixed, formatNano, parseFixed } from '../../server/domain/money.ts'
import { earnedAfter, maxReward } from '../../server/domain/rewards.ts'
import { createPriceFeed } from '../../server/domain/price-walk.ts'

describe('money', () => {
  it('parses decimal text exactly and formats it back', () => {
    expect(parseFixed('12.5', 9)).toBe(12_500_000_000n)
    expect(parseFixed('1000.000000001', 9)).toBe(1_000_000_000_001n)
    expect(parseFixed(0.1, 9)).toBe(100_000_000n)
    expect(parseFixed('1e3', 9)).toBe(1_000_000_000_000n)
    expect(parseFixed(1e-7, 9)).toBe(100n)
    expect(parseFixed('1.0000000001', 9)).toBe('must have at most 9 decimals')
    expect(parseFixed('-1', 9)).toBe('must not be negative')
    expect(parseFixed(Number.NaN, 9)).toBe('must be a finite number')
    expect(formatNano(0n)).toBe('0')
    expect(formatNano(12_500_000_000n)).toBe('12.5')
  })

  it('formats the shortest exact decimal: no leading or trailing zeros, a sign only below zero', () => {
    expect(formatFixed(5n, 9)).toBe('0.000000005')
    expect(formatFixed(-1_500_000_000n, 9)).toBe('-1.5')
    expect(formatFixed(1_000_000_000n, 9)).toBe('1')
    expect(formatFixed(7n, 0)).toBe('7')
    expect(formatFixed(10_000n, 4)).toBe('1')
    expect(formatFixed(123_450n, 4)).toBe('12.345')
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 21n), max: 10n ** 21n }), fc.integer({ min: 0, max: 12 }), (n, d) => {
        const text = formatFixed(n, d)
        expect(text).toMatch(/^-?(0|[1-9]\d*)(\.\d*[1-9])?$/)
        expect(text.startsWith('-')).toBe(n < 0n)
        expect(parseFixed(text.replace(/^-/, ''), d)).toBe(n < 0n ? -n : n)
      }),
    )
  })

  it('format then parse is the identity on nano amounts', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 10n ** 21n }), (n) => {
      expect(parseFixed(formatNano(n), 9)).toBe(n)
    }))
  })

  it('earned reward never decreases and never exceeds the whole-term reward', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        fc.bigInt({ min: 0n, max: 200_000n }),
        fc.integer({ min: 1, max: 365 }),
        fc.nat(40_000_000),
        fc.nat(40_000_000),
        (total, pct, days, a, b) => {
          const terms = { total, percentPerDay: pct, days: BigInt(days) }
          const [lo, hi] = a < b ? [a, b] : [b, a]
          expect(earnedAfter(terms, BigInt(lo))).toBeLessThanOrEqual(earnedAfter(terms, BigInt(hi)))
          expect(earnedAfter(terms, BigInt(hi))).toBeLessThanOrEqual(maxReward(terms))
        },
      ),
    )
  })

  it('the price walk is a function of its seed', () => {
    const a = createPriceFeed(7)
    const b = createPriceFeed(7)
    const c = createPriceFeed(8)
    const now = 1_780_000_000
    expect(a.candles('1h', now - 86_400, now, now)).toEqual(b.candles('1h', now - 86_400, now, now))
    expect(a.current(now)).not.toEqual(c.current(now))
  })

  it("the walk's price, shown at 6 places, moves within any 20 seconds (a watched price is never still)", () => {
    // Three feeds built once (each walks from 2024 to the second asked), any second of 2026.
    const feeds = [42, 7, 1].map(createPriceFeed)
    const shown = (nano: bigint) => nano / 1_000n // nanotons → millionths, as the app shows them
    fc.assert(
      fc.property(fc.constantFrom(...feeds), fc.integer({ min: 1_767_225_600, max: 1_798_761_600 }), (feed, t) => {
        const seen = new Set(Array.from({ length: 20 }, (_, i) => shown(feed.priceAt(t + i))))
        expect(seen.size).toBeGreaterThan(1)
      }),
      { numRuns: 2_000 },
    )
  })
})

describe('rounding direction', () => {
  it('rounds what a user owes up and what a user gets down, by at most one nano-unit', async () => {
    const { mulNano, mulNanoUp, percentOf, percentOfUp } = await import('../../server/domain/money.ts')
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 18n }), fc.bigInt({ min: 1n, max: 10n ** 12n }), (a, b) => {
        const down = mulNano(a, b)
        const up = mulNanoUp(a, b)
        return down * 1_000_000_000n <= a * b && up * 1_000_000_000n >= a * b && up - down <= 1n
      }),
      { numRuns: 1_000 },
    )
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 18n }), fc.bigInt({ min: 1n, max: 1_000_000n }), (a, p) => percentOfUp(a, p) - percentOf(a, p) <= 1n),
      { numRuns: 1_000 },
    )
  })
})
