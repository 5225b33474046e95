import { Effect } from 'effect'
import { InvalidInput } from '../errors.ts'
import { truncateDecimal } from './format-amount.ts'

export type AmountInputResult =
  | { readonly ok: true; readonly value: number; readonly text: string }
  | { readonly ok: false; readonly reason: 'empty' | 'not-a-number' | 'not-positive' | 'over-balance' }

/**
 * Reads an amount typed by the user: spaces ignored, a comma taken as the decimal point, truncated
 * (never rounded) to `decimals` places, and checked to be positive and within `max` when given.
 */
export const parseAmountInput = (raw: string, decimals = 2, max?: number): AmountInputResult => {
  const cleaned = raw.replace(/\s/g, '').replace(',', '.')
  if (cleaned === '') return { ok: false, reason: 'empty' }
  if (!/^\d*\.?\d*$/.test(cleaned) || cleaned === '.') return { ok: false, reason: 'not-a-number' }
  const text = truncateDecimal(cleaned, decimals)
  const value = Number(text)
  if (!(value > 0)) return { ok: false, reason: 'not-positive' }
  if (max !== undefined && value > max) return { ok: false, reason: 'over-balance' }
  return { ok: true, value, text }
}

/** A use case's check of an amount before anything is sent: above zero, or InvalidInput for `field`. */
export const positiveAmount = (field: string, amount: number): Effect.Effect<void, InvalidInput> =>
  Number.isFinite(amount) && amount > 0 ? Effect.void : Effect.fail(new InvalidInput({ field, msg: 'Enter an amount above zero' }))
