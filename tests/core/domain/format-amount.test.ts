import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatAmount, formatNonZero, parseAmountInput, truncateDecimal } from '../../../core/index.ts'

const RUNS = { numRuns: 1_000 }

/** A decimal string with up to 12 integer digits and up to 12 fraction digits. */
const arbDecimal = fc
  .tuple(fc.bigInt({ min: 0n, max: 999_999_999_999n }), fc.stringMatching(/^\d{0,12}$/), fc.boolean())
  .map(([int, frac, neg]) => `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}`)

/** Exact comparison of decimal strings as scaled bigints. */
const scaled = (s: string, places = 24): bigint => {
  const neg = s.startsWith('-')
  const [i = '0', f = ''] = s.replace(/^-/, '').replace(/ /g, '').split('.')
  const v = BigInt(i + f.padEnd(places, '0').slice(0, places))
  return neg ? -v : v
}

describe('formatAmount (spec §5)', () => {
  it('truncates and never rounds', () => {
    expect(formatAmount(1.999)).toBe('1.99')
    expect(formatAmount(0.129999, 4)).toBe('0.1299')
    expect(formatAmount(2.9999999, 6)).toBe('2.999999')
  })

  it('keeps decimal inputs exact: no binary float artefacts', () => {
    expect(formatAmount(1.13)).toBe('1.13')
    expect(formatAmount(0.29)).toBe('0.29')
    expect(formatAmount(4.35)).toBe('4.35')
    expect(formatAmount(1.005, 3)).toBe('1.005')
    expect(formatAmount(1e-7, 6)).toBe('0.00')
    expect(formatAmount(1.5e-5, 6)).toBe('0.000015')
  })

  it('gives a whole number ".00", and at least two places otherwise', () => {
    expect(formatAmount(5)).toBe('5.00')
    expect(formatAmount(5, 6)).toBe('5.00')
    expect(formatAmount(1.5)).toBe('1.50')
    expect(formatAmount(0)).toBe('0.00')
  })

  it('shows NaN for a non-number', () => {
    expect(formatAmount(Number.NaN)).toBe('NaN')
    expect(formatAmount('abc')).toBe('NaN')
    expect(formatAmount('')).toBe('NaN')
    expect(formatAmount(Number.POSITIVE_INFINITY)).toBe('NaN')
  })

  it('groups thousands with spaces', () => {
    expect(formatAmount(1234567.891)).toBe('1 234 567.89')
    expect(formatAmount(-1234.5)).toBe('-1 234.50')
    expect(formatAmount(999)).toBe('999.00')
    expect(formatAmount(1e21)).toBe('1 000 000 000 000 000 000 000.00')
  })

  it('law: truncation never rounds up (|result| ≤ |input|) and loses less than one unit of the last place', () => {
    fc.assert(
      fc.property(arbDecimal, fc.constantFrom(2, 4, 6), (s, d) => {
        const out = scaled(truncateDecimal(s, d))
        const exact = scaled(s)
        const abs = (x: bigint) => (x < 0n ? -x : x)
        const unit = 10n ** BigInt(24 - d)
        return abs(out) <= abs(exact) && abs(exact) - abs(out) < unit
      }),
      RUNS,
    )
  })

  it('law: truncation is idempotent and gives back at most d places, exactly', () => {
    fc.assert(
      fc.property(arbDecimal, fc.constantFrom(2, 4, 6), (s, d) => {
        const once = truncateDecimal(s, d)
        const frac = once.split('.')[1] ?? ''
        return truncateDecimal(once, d) === once && frac.length <= d && formatAmount(once, d) === formatAmount(s, d)
      }),
      RUNS,
    )
  })

  it('law: numbers format exactly as their shortest decimal text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999 }), fc.integer({ min: 0, max: 99 }), (i, c) => {
        const n = Number(`${i}.${String(c).padStart(2, '0')}`)
        return formatAmount(n) === `${i.toLocaleString('en').replace(/,/g, ' ')}.${String(c).padStart(2, '0')}`
      }),
      RUNS,
    )
  })

  it('law: grouping is by 3 with spaces', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), (n) => {
        const [int = ''] = formatAmount(n.toString()).split('.')
        const groups = int.split(' ')
        return (
          groups.join('') === n.toString() &&
          groups.every((g, i) => (i === 0 ? g.length >= 1 && g.length <= 3 : g.length === 3))
        )
      }),
      RUNS,
    )
  })
})

describe('parseAmountInput', () => {
  it('reads typed amounts with spaces and a comma, truncated', () => {
    expect(parseAmountInput('1 234,567')).toEqual({ ok: true, value: 1234.56, text: '1234.56' })
    expect(parseAmountInput('')).toEqual({ ok: false, reason: 'empty' })
    expect(parseAmountInput('12a')).toEqual({ ok: false, reason: 'not-a-number' })
    expect(parseAmountInput('0.001')).toEqual({ ok: false, reason: 'not-positive' })
    expect(parseAmountInput('5', 2, 4)).toEqual({ ok: false, reason: 'over-balance' })
  })
})

describe('formatNonZero (a tiny amount never reads as zero, spec §5)', () => {
  it('moves to 4, then 6 places, then says it is under a millionth', () => {
    expect(formatNonZero('0.0000123', 4)).toBe('0.000012')
    expect(formatNonZero('0.00123', 2)).toBe('0.0012')
    expect(formatNonZero('12.5', 4)).toBe('12.50')
    expect(formatNonZero('0.0000000004')).toBe('<0.000001')
    expect(formatNonZero('-0.0000000004')).toBe('-<0.000001')
    expect(formatNonZero('0', 4)).toBe('0.00')
  })

  it('law: a non-zero amount reads non-zero, at 2, 4 or 6 places, truncated toward zero', () => {
    fc.assert(
      fc.property(arbDecimal, fc.constantFrom(2 as const, 4 as const, 6 as const), (d, least) => {
        const shown = formatNonZero(d, least)
        if (scaled(d) === 0n) {
          expect(shown).toBe(formatAmount(d, least))
          return
        }
        if (shown.includes('<')) {
          expect(scaled(d.replace('-', '')) < scaled('0.000001')).toBe(true)
          return
        }
        const frac = shown.split('.')[1] ?? ''
        expect(frac.length).toBeGreaterThanOrEqual(2)
        expect(frac.length).toBeLessThanOrEqual(6)
        expect(scaled(shown)).not.toBe(0n)
        const abs = (v: bigint) => (v < 0n ? -v : v)
        expect(abs(scaled(shown)) <= abs(scaled(d))).toBe(true)
      }),
      RUNS,
    )
  })

  it('law: an amount that shows at `least` places is shown exactly as formatAmount shows it', () => {
    fc.assert(
      fc.property(arbDecimal, (d) => {
        fc.pre(truncateDecimal(d, 4).replace('-', '') !== '0')
        expect(formatNonZero(d, 4)).toBe(formatAmount(d, 4))
      }),
      RUNS,
    )
  })
})
