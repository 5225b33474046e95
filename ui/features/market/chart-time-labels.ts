import type { Time } from 'lightweight-charts'
import type { Language } from '../../i18n/catalogues.ts'

/**
 * Short month names, as `Intl.DateTimeFormat(locale, { month: 'short' })` writes them (a test holds
 * them to it). Written out because the page's first Intl formatter loads the locale's data: about
 * 30 ms at full CPU speed, inside the chart's first draw.
 */
const SHORT_MONTHS: Record<Language, readonly string[]> = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  ru: ['янв.', 'февр.', 'март', 'апр.', 'май', 'июнь', 'июль', 'авг.', 'сент.', 'окт.', 'нояб.', 'дек.'],
  uk: ['січ.', 'лют.', 'бер.', 'квіт.', 'трав.', 'черв.', 'лип.', 'серп.', 'вер.', 'жовт.', 'лист.', 'груд.'],
  es: ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sept', 'oct', 'nov', 'dic'],
  'pt-BR': ['jan.', 'fev.', 'mar.', 'abr.', 'mai.', 'jun.', 'jul.', 'ago.', 'set.', 'out.', 'nov.', 'dez.'],
  id: ['Jan', 'Feb', 'Mar', 'Apr', 'Mei', 'Jun', 'Jul', 'Agu', 'Sep', 'Okt', 'Nov', 'Des'],
  tr: ['Oca', 'Şub', 'Mar', 'Nis', 'May', 'Haz', 'Tem', 'Ağu', 'Eyl', 'Eki', 'Kas', 'Ara'],
  // The Gregorian months (the chart's axis is Gregorian, in Latin digits, in every language).
  fa: ['ژانویه', 'فوریه', 'مارس', 'آوریل', 'مه', 'ژوئن', 'ژوئیه', 'اوت', 'سپتامبر', 'اکتبر', 'نوامبر', 'دسامبر'],
}

const two = (n: number) => String(n).padStart(2, '0')

/** A chart time (the candle's start, UTC seconds; or a business day) as a Date. */
const dateOf = (time: Time): Date =>
  typeof time === 'number'
    ? new Date(time * 1000)
    : typeof time === 'string'
      ? new Date(`${time}T00:00:00Z`)
      : new Date(Date.UTC(time.year, time.month - 1, time.day))

/**
 * The time axis' labels by lightweight-charts' kind of mark (its TickMarkType: 0 year, 1 month,
 * 2 day of month, 3 time, 4 time with seconds), in UTC as the library's default writes them, and in
 * the app's language. Times are on a 24-hour clock from 00:00 (the default's English reads midnight
 * as "24:00").
 */
export const tickMarkFormatter =
  (language: Language) =>
  (time: Time, tickMarkType: number): string => {
    const d = dateOf(time)
    switch (tickMarkType) {
      case 0:
        return String(d.getUTCFullYear())
      case 1:
        return SHORT_MONTHS[language][d.getUTCMonth()]!
      case 2:
        return String(d.getUTCDate())
      case 4:
        return `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`
      default:
        return `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`
    }
  }

/** The crosshair's time label, the library's default shape (`27 May '26   20:00`) in the app's language. */
export const crosshairTimeFormatter =
  (language: Language) =>
  (time: Time): string => {
    const d = dateOf(time)
    return `${two(d.getUTCDate())} ${SHORT_MONTHS[language][d.getUTCMonth()]} '${two(d.getUTCFullYear() % 100)}   ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`
  }
