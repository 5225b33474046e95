import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatAmount } from '../../core/index.ts'
import { formatCount, formatFixedAmount, formatSignedPercent } from '../../ui/lib/format.ts'
import { filesUnder } from '../support/source-imports.ts'

describe('formatSignedPercent (price changes)', () => {
  it('truncates to two decimals like every amount, never rounds', () => {
    expect(formatSignedPercent(1.999)).toBe('+1.99%')
    expect(formatSignedPercent(-0.409)).toBe('−0.40%')
    expect(formatSignedPercent(1.13)).toBe('+1.13%')
    expect(formatSignedPercent(12)).toBe('+12.00%')
    expect(formatSignedPercent(0)).toBe('0.00%')
    expect(formatSignedPercent(1234.5)).toBe('+1 234.50%')
    expect(formatSignedPercent(Number.NaN)).toBe('NaN')
  })

  it('law: the shown figure is never above the true one', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), (v) => {
        const shown = Number(formatSignedPercent(v).replace(/[+−%\s]/g, ''))
        return shown <= Math.abs(v)
      }),
      { numRuns: 1_000 },
    )
  })
})

describe('formatFixedAmount (the price, at a width that holds from tick to tick)', () => {
  it('keeps every place, truncated, never rounded', () => {
    expect(formatFixedAmount(0.03132, 6)).toBe('0.031320')
    expect(formatFixedAmount(0.031319, 6)).toBe('0.031319')
    expect(formatFixedAmount(0.0313199, 6)).toBe('0.031319')
    expect(formatFixedAmount(2, 6)).toBe('2.000000')
    expect(formatFixedAmount(1234.5, 4)).toBe('1 234.5000')
    expect(formatFixedAmount(-0.5, 2)).toBe('-0.50')
    expect(formatFixedAmount(Number.NaN, 6)).toBe('NaN')
  })

  it('law: always exactly the places asked for, the same figure formatAmount shows, never above the true value', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constantFrom(2 as const, 4 as const, 6 as const), (v, d) => {
        const shown = formatFixedAmount(v, d)
        const [, frac = ''] = shown.split('.')
        return frac.length === d && Number(shown.replace(/ /g, '')) === Number(formatAmount(v, d).replace(/ /g, '')) && Number(shown.replace(/ /g, '')) <= v
      }),
      { numRuns: 1_000 },
    )
  })
})

describe('formatCount (users, bonds)', () => {
  it('groups thousands with spaces and shows no decimals', () => {
    expect(formatCount(3)).toBe('3')
    expect(formatCount(0)).toBe('0')
    expect(formatCount(1234567)).toBe('1 234 567')
    expect(formatCount(Number.POSITIVE_INFINITY)).toBe('NaN')
  })
})

describe('ui/ formats numbers only through formatAmount', () => {
  const UI = join(import.meta.dirname, '../../ui')
  const files = filesUnder(UI).filter((f) => /\.tsx?$/.test(f))

  // toFixed and toPrecision round; toLocaleString and Intl.NumberFormat group with commas or
  // non-breaking spaces by locale. Amounts are truncated and grouped with spaces (spec §5).
  it.each(files.map((f) => [relative(UI, f), f]))('%s', (_, file) => {
    const source = readFileSync(file, 'utf8')
    expect(source.match(/\.toFixed\(|\.toPrecision\(|\.toLocaleString\(|Intl\.NumberFormat/g) ?? []).toEqual([])
  })
})
