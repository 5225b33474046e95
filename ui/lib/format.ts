import { formatAmount } from '../../core/index.ts'

/** Display helpers that are not amounts: dates, counts and percentages. Amounts use the core's formatAmount. */

export const formatDateTime = (unixSeconds: number, language: string): string => {
  if (!Number.isFinite(unixSeconds) || unixSeconds <= 0) return '—'
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(unixSeconds * 1000))
}

/** A count of things (users, bonds): whole, thousands grouped with spaces like amounts, no decimals. */
export const formatCount = (value: number): string => (Number.isFinite(value) ? formatAmount(Math.trunc(value), 0) : 'NaN')

/** A signed percentage for price changes, truncated like amounts (spec §5): '+1.25%' / '−0.40%'. */
export const formatSignedPercent = (value: number): string => {
  if (!Number.isFinite(value)) return 'NaN'
  const sign = value > 0 ? '+' : value < 0 ? '−' : ''
  return `${sign}${formatAmount(Math.abs(value), 2)}%`
}

export const changeTone = (value: number): 'up' | 'down' | 'flat' => (value > 0 ? 'up' : value < 0 ? 'down' : 'flat')
