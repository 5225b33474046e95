import { InvalidInput } from './errors.ts'

/** Token and TON amounts are integers of nano-units (1e9 per unit); percentages are integers scaled by 1e4. */
export const NANO_DECIMALS = 9
export const NANO = 1_000_000_000n
export const PERCENT_DECIMALS = 4
export const PERCENT_SCALE = 10_000n
/**
 * No single amount may exceed 1e9 tokens (1e18 nano-units): SQLite integers stop at 2^63 − 1 ≈ 9.22e18,
 * so any one amount, and a balance made of a few of them, stays an exact integer.
 */
export const MAX_AMOUNT_NANO = 1_000_000_000n * NANO
/** The largest value a SQLite integer column holds. */
export const SQLITE_MAX_INTEGER = 9_223_372_036_854_775_807n

const POW10 = (n: number): bigint => 10n ** BigInt(n)

/** Exact decimal text of a scaled integer: 12500000000n at 9 decimals → "12.5". */
export const formatFixed = (value: bigint, decimals: number): string => {
  const negative = value < 0n
  // The digits, cut at the point (no bigint division: /user/me formats seven amounts per answer).
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  let end = digits.length
  while (end > whole.length && digits.charCodeAt(end - 1) === 48) end--
  const frac = digits.slice(whole.length, end)
  return `${negative ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`
}

export const formatNano = (nano: bigint): string => formatFixed(nano, NANO_DECIMALS)
export const formatPercent = (scaled: bigint): string => formatFixed(scaled, PERCENT_DECIMALS)

const DECIMAL = /^\+?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?$/

/**
 * Parses decimal text exactly into an integer scaled by 10^decimals, or returns a reason.
 * JSON numbers are read through their shortest decimal text, which is the text the client wrote.
 */
export const parseFixed = (input: unknown, decimals: number): bigint | string => {
  let text: string
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return 'must be a finite number'
    text = String(input)
  } else if (typeof input === 'string') {
    text = input.trim()
  } else if (typeof input === 'bigint') {
    text = input.toString()
  } else {
    return 'must be a number or a numeric string'
  }
  if (text.startsWith('-')) return /^-0*(\.0*)?$/.test(text) ? 0n : 'must not be negative'
  const m = DECIMAL.exec(text)
  if (!m || (m[1] === '' && (m[2] ?? '') === '')) return 'must be a decimal number'
  let digits = (m[1] ?? '') + (m[2] ?? '')
  let point = (m[1] ?? '').length + Number(m[3] ?? '0')
  if (point > 40) return 'is too large'
  if (point < 0) {
    digits = '0'.repeat(-point) + digits
    point = 0
  }
  const intPart = digits.slice(0, point).padEnd(point, '0')
  const fracPart = digits.slice(point)
  const significantFrac = fracPart.replace(/0+$/, '')
  if (significantFrac.length > decimals) return `must have at most ${decimals} decimals`
  return BigInt(intPart || '0') * POW10(decimals) + BigInt(significantFrac.padEnd(decimals, '0') || '0')
}

export interface AmountRule {
  readonly allowZero?: boolean
  readonly min?: bigint
  readonly max?: bigint
}

/** A request amount in nano-units, or a 422 naming the field and why. */
export const requireNano = (field: string, input: unknown, rule: AmountRule = {}): bigint => {
  if (input === undefined || input === null || input === '') throw new InvalidInput(`${field} is required`)
  const parsed = parseFixed(input, NANO_DECIMALS)
  if (typeof parsed === 'string') throw new InvalidInput(`${field} ${parsed}`)
  if (parsed === 0n && !rule.allowZero) throw new InvalidInput(`${field} must be greater than 0`)
  const max = rule.max ?? MAX_AMOUNT_NANO
  if (parsed > max) throw new InvalidInput(`${field} must be at most ${formatNano(max)}`)
  if (rule.min !== undefined && parsed < rule.min) throw new InvalidInput(`${field} must be at least ${formatNano(rule.min)}`)
  return parsed
}

/** amount × price, both in nano, floored to nano. */
export const mulNano = (a: bigint, b: bigint): bigint => (a * b) / NANO

/** amount × price, both in nano, rounded up to nano: what a user owes never falls short. */
export const mulNanoUp = (a: bigint, b: bigint): bigint => (a * b + NANO - 1n) / NANO

/** amount × percent (scaled by 1e4) / 100, floored to nano. */
export const percentOf = (amount: bigint, percentScaled: bigint): bigint => (amount * percentScaled) / (100n * PERCENT_SCALE)

/** amount × percent / 100, rounded up to nano: for what a user pays (a penalty). */
export const percentOfUp = (amount: bigint, percentScaled: bigint): bigint =>
  (amount * percentScaled + 100n * PERCENT_SCALE - 1n) / (100n * PERCENT_SCALE)

export const tokens = (whole: number | bigint): bigint => BigInt(whole) * NANO
