import type { Time } from 'lightweight-charts'

/** lightweight-charts' kinds of tick mark (its TickMarkType): year, month, day of month, time, time with seconds. */
const TICK_FORMATS: ReadonlyArray<Intl.DateTimeFormatOptions> = [
  { year: 'numeric' },
  { month: 'short' },
  { day: 'numeric' },
  { hour12: false, hour: '2-digit', minute: '2-digit' },
  { hour12: false, hour: '2-digit', minute: '2-digit', second: '2-digit' },
]

/**
 * The time axis' labels, as lightweight-charts' default formatter writes them (the candle's UTC
 * date and time, in the locale's words), from one `Intl.DateTimeFormat` per kind of mark, made
 * here. The default builds a formatter for every label (`toLocaleString` with options): about ten
 * times slower per label. The page's first Intl formatter also loads the locale's data (about
 * 35 ms at full CPU speed), so the chart makes this one in a task before its first draw.
 */
export const tickMarkFormatter = (locale: string) => {
  const formats = TICK_FORMATS.map((options) => new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }))
  // A formatter loads what it needs on its first use: here, rather than in the first draw.
  for (const format of formats) format.format(0)
  return (time: Time, tickMarkType: number): string => {
    const format = formats[tickMarkType] ?? formats[3]!
    const date =
      typeof time === 'number'
        ? new Date(time * 1000)
        : typeof time === 'string'
          ? new Date(`${time}T00:00:00Z`)
          : new Date(Date.UTC(time.year, time.month - 1, time.day))
    return format.format(date)
  }
}
