import { formatAmount } from '../../core/index.ts'

/** Display helpers that are not amounts: dates, counts and percentages. Amounts use the core's formatAmount. */

export const formatDateTime = (unixSeconds: number, language: string): string => {
  if (!Number.isFinite(unixSeconds) || unixSeconds <= 0) return '—'
  // Latin digits in every language (Farsi's Intl writes Persian ones; amounts and dates read alike).
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', numberingSystem: 'latn' }).format(new Date(unixSeconds * 1000))
}

/** A count of things (users, bonds): whole, thousands grouped with spaces like amounts, no decimals. */
export const formatCount = (value: number): string => (Number.isFinite(value) ? formatAmount(Math.trunc(value), 0) : 'NaN')

/** A signed percentage for price changes, truncated like amounts (spec §5): '+1.25%' / '−0.40%'. */
export const formatSignedPercent = (value: number): string => {
  if (!Number.isFinite(value)) return 'NaN'
  const sign = value > 0 ? '+' : value < 0 ? '−' : ''
  return `${sign}${formatAmount(Math.abs(value), 2)}%`
}

/**
 * An amount at exactly `decimals` places: truncated like every amount (spec §5), its trailing zeros
 * kept, so that a figure that changes every tick (the price) keeps its width: '0.031320', not '0.03132'.
 */
export const formatFixedAmount = (value: number | string, decimals: 2 | 4 | 6): string => {
  const shown = formatAmount(value, decimals)
  if (shown === 'NaN') return shown
  const [int = '0', frac = ''] = shown.split('.')
  return `${int}.${frac.padEnd(decimals, '0')}`
}

export const changeTone = (value: number): 'up' | 'down' | 'flat' => (value > 0 ? 'up' : value < 0 ? 'down' : 'flat')
