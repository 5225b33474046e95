/** Expands a JS number's shortest round-trip form ("1e-7", "1.5e+21") into plain decimal digits. */
const plainDecimal = (text: string): string => {
  const match = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/i.exec(text)
  if (!match) return text
  const [, sign = '', int = '', frac = '', expText = '0'] = match
  const exp = Number(expText)
  const digits = int + frac
  const point = int.length + exp
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length)
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
}

const groupThousands = (int: string): string => int.replace(/\B(?=(\d{3})+(?!\d))/g, ' ')

/**
 * Truncates a decimal (never rounds) to `decimals` places, working on its decimal digits so
 * that binary float artefacts cannot leak: truncateDecimal(1.13, 2) is '1.13', not '1.12'.
 * Returns the plain digits with no grouping, or 'NaN' for anything that is not a finite number.
 */
export const truncateDecimal = (value: number | string, decimals: number): string => {
  const n = typeof value === 'number' ? value : Number(value)
  if (typeof value === 'string' && value.trim() === '') return 'NaN'
  if (!Number.isFinite(n)) return 'NaN'
  const text = typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? value.trim() : plainDecimal(String(n))
  const negative = text.startsWith('-')
  const [intRaw = '0', fracRaw = ''] = (negative ? text.slice(1) : text).split('.')
  const int = intRaw.replace(/^0+(?=\d)/, '')
  const frac = fracRaw.slice(0, Math.max(0, decimals)).replace(/0+$/, '')
  const isZero = /^0*$/.test(int) && frac === ''
  return `${negative && !isZero ? '-' : ''}${int}${frac ? `.${frac}` : ''}`
}

/**
 * Formats an amount for display (spec §5): truncated (never rounded) to `decimals` places
 * (2, 4 or 6), at least two places shown (a whole number gets '.00'), thousands grouped
 * with spaces; a non-number shows 'NaN'.
 */
export const formatAmount = (value: number | string, decimals = 2): string => {
  const plain = truncateDecimal(value, decimals)
  if (plain === 'NaN') return 'NaN'
  const negative = plain.startsWith('-')
  const [int = '0', frac = ''] = (negative ? plain.slice(1) : plain).split('.')
  const shown = frac.padEnd(Math.min(2, Math.max(0, decimals)), '0')
  return `${negative ? '-' : ''}${groupThousands(int)}${shown ? `.${shown}` : ''}`
}

/** The decimal places spec §5 allows an amount: 2, or 4 or 6 "in places". */
const ALLOWED_DECIMALS = [2, 4, 6] as const

/** The smallest amount six places can show. */
const SMALLEST_SHOWN = '0.000001'

/**
 * An amount shown so that a non-zero one never reads as zero (spec §5): at `least` places, or at
 * the next allowed (4, then 6) while the cut digits would all be zero; below a millionth it reads
 * '<0.000001'. Still truncated, never rounded.
 */
export const formatNonZero = (value: number | string, least: 2 | 4 | 6 = 2): string => {
  const plain = truncateDecimal(value, 20)
  if (plain === 'NaN' || plain === '0') return formatAmount(value, least)
  for (const decimals of ALLOWED_DECIMALS) {
    if (decimals < least) continue
    if (truncateDecimal(value, decimals).replace('-', '') !== '0') return formatAmount(value, decimals)
  }
  return `${plain.startsWith('-') ? '-' : ''}<${SMALLEST_SHOWN}`
}
