import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UTCTimestamp } from 'lightweight-charts'
import { tickMarkFormatter } from '../../ui/features/market/tick-marks.ts'

/**
 * The chart's time-axis labels, written from one Intl formatter per kind of mark, read exactly as
 * lightweight-charts' default labels: the candle's UTC date and time, in the locale's words. The
 * reference below is the library's default formatter (defaultTickMarkFormatter in
 * lightweight-charts 5), written out: a local Date holding the UTC fields, `toLocaleString` with
 * the options of the mark's kind.
 */
const OPTIONS: Intl.DateTimeFormatOptions[] = [
  { year: 'numeric' },
  { month: 'short' },
  { day: 'numeric' },
  { hour12: false, hour: '2-digit', minute: '2-digit' },
  { hour12: false, hour: '2-digit', minute: '2-digit', second: '2-digit' },
]
const libraryDefault = (seconds: number, kind: number, locale: string) => {
  const d = new Date(seconds * 1000)
  const local = new Date(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds())
  return local.toLocaleString(locale, OPTIONS[kind])
}

describe('time-axis labels', () => {
  // In a time zone away from UTC, so a label read in local time would differ.
  const zone = process.env.TZ
  beforeAll(() => void (process.env.TZ = 'America/Sao_Paulo'))
  afterAll(() => void (zone === undefined ? delete process.env.TZ : (process.env.TZ = zone)))

  it('reads the candle time in UTC, by kind of mark', () => {
    // 2026-05-27 20:00:00 UTC, and 2026-01-01 00:00:00 UTC.
    const at = (seconds: number) => seconds as UTCTimestamp
    const en = (seconds: number, kind: number) => tickMarkFormatter('en')(at(seconds), kind)
    expect(en(1779912000, 3)).toBe('20:00')
    expect(en(1779912000, 4)).toBe('20:00:00')
    expect(en(1779912000, 2)).toBe('27')
    expect(en(1779912000, 1)).toBe('May')
    expect(en(1767225600, 0)).toBe('2026')
    expect(tickMarkFormatter('ru')(at(1779912000), 1)).toBe('май')
  })

  it('is the library default label for every time and kind, in English and Russian', () => {
    const formatters = { en: tickMarkFormatter('en'), ru: tickMarkFormatter('ru') }
    fc.assert(
      fc.property(
        fc.integer({ min: 1_577_836_800, max: 2_082_758_400 }),
        fc.integer({ min: 0, max: 4 }),
        fc.constantFrom('en' as const, 'ru' as const),
        (seconds, kind, locale) => {
          expect(formatters[locale](seconds as UTCTimestamp, kind)).toBe(libraryDefault(seconds, kind, locale))
        },
      ),
      { numRuns: 500 },
    )
  })
})
