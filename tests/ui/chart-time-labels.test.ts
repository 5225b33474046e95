import fc from 'fast-check'
import type { UTCTimestamp } from 'lightweight-charts'
import { describe, expect, it } from 'vitest'
import { LANGUAGES } from '../../core/domain/languages.ts'
import { crosshairTimeFormatter, tickMarkFormatter } from '../../ui/features/market/chart-time-labels.ts'

/**
 * The chart's time labels are written without Intl (its first use loads the locale's data inside
 * the chart's first draw). They read as `Intl.DateTimeFormat` writes the candle's UTC time with the
 * options lightweight-charts' default formatter uses per kind of mark, on a 23-hour clock (the
 * default's `hour12: false` makes English midnight "24:00").
 */
const OPTIONS: Intl.DateTimeFormatOptions[] = [
  { year: 'numeric' },
  { month: 'short' },
  { day: 'numeric' },
  { hourCycle: 'h23', hour: '2-digit', minute: '2-digit' },
  { hourCycle: 'h23', hour: '2-digit', minute: '2-digit', second: '2-digit' },
]
// The chart's axis is the Gregorian calendar's in Latin digits in every language (Farsi's too).
// Times keep the colon in every language (Indonesian's CLDR writes 20.00; the chart's labels are one shape).
const intl = (seconds: number, kind: number, locale: string) => {
  const text = new Intl.DateTimeFormat(locale, { ...OPTIONS[kind], timeZone: 'UTC', calendar: 'gregory', numberingSystem: 'latn' }).format(new Date(seconds * 1000))
  return kind >= 3 ? text.replace(/\./g, ':') : text
}

const at = (seconds: number) => seconds as UTCTimestamp
const seconds = fc.integer({ min: 1_577_836_800, max: 2_082_758_400 })

describe('the chart time labels', () => {
  it('read the candle time in UTC, by kind of mark', () => {
    // 2026-05-27 20:00:00 UTC; 2026-01-01 00:07:09 UTC.
    const en = tickMarkFormatter('en')
    expect(en(at(1779912000), 3)).toBe('20:00')
    expect(en(at(1779912000), 4)).toBe('20:00:00')
    expect(en(at(1779912000), 2)).toBe('27')
    expect(en(at(1779912000), 1)).toBe('May')
    expect(en(at(1767226029), 0)).toBe('2026')
    expect(en(at(1767226029), 3)).toBe('00:07')
    expect(tickMarkFormatter('ru')(at(1779912000), 1)).toBe('май')
    expect(crosshairTimeFormatter('en')(at(1779912000))).toBe("27 May '26   20:00")
    expect(crosshairTimeFormatter('ru')(at(1767226029))).toBe("01 янв. '26   00:07")
  })

  it('are what Intl writes for every time and kind, in every language', () => {
    fc.assert(
      fc.property(seconds, fc.integer({ min: 0, max: 4 }), fc.constantFrom(...LANGUAGES), (s, kind, language) => {
        expect(tickMarkFormatter(language)(at(s), kind)).toBe(intl(s, kind, language))
      }),
      { numRuns: 500 },
    )
  })

  it('name every month as Intl does', () => {
    for (const language of LANGUAGES)
      for (let month = 0; month < 12; month++) {
        const s = Date.UTC(2026, month, 15, 12) / 1000
        expect(tickMarkFormatter(language)(at(s), 1)).toBe(intl(s, 1, language))
      }
  })
})
