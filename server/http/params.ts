import { DEFAULT_PAGE_LIMIT, HISTORY_PAGE_SIZE } from '../../core/domain/constants.ts'
import { httpError } from './errors.ts'

export type Fields = Record<string, unknown>

/** The request body as an object of fields; anything else is a 422. */
export const bodyFields = (body: unknown): Fields => {
  if (body === undefined || body === null || body === '') return {}
  if (typeof body !== 'object' || Array.isArray(body)) throw httpError(422, 'The body must be a JSON object')
  return body as Fields
}

export const queryFields = (query: unknown): Fields => (query && typeof query === 'object' ? (query as Fields) : {})

export interface IntRule {
  readonly min: number
  readonly max: number
  readonly fallback?: number
}

/** A whole number from a JSON number or a digit string, within [min, max]. */
export const intField = (fields: Fields, name: string, rule: IntRule): number => {
  const v = fields[name]
  if (v === undefined || v === null || v === '') {
    if (rule.fallback !== undefined) return rule.fallback
    throw httpError(422, `${name} is required`)
  }
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d{1,16}$/.test(v) ? Number(v) : NaN
  if (!Number.isSafeInteger(n)) throw httpError(422, `${name} must be a whole number`)
  if (n < rule.min || n > rule.max) throw httpError(422, `${name} must be between ${rule.min} and ${rule.max}`)
  return n
}

/** A record id (path or body): digits only, else 422; whether it exists is the caller's 404. */
export const idField = (fields: Fields, name: string): bigint => {
  const v = fields[name]
  if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return BigInt(v)
  if (typeof v === 'string' && /^\d{1,15}$/.test(v) && BigInt(v) > 0n) return BigInt(v)
  throw httpError(422, `${name} must be a positive whole number`)
}

export const boolField = (fields: Fields, name: string, fallback?: boolean): boolean => {
  const v = fields[name]
  if (v === undefined || v === null || v === '') {
    if (fallback !== undefined) return fallback
    throw httpError(422, `${name} is required`)
  }
  if (v === true || v === 'true' || v === '1' || v === 1) return true
  if (v === false || v === 'false' || v === '0' || v === 0) return false
  throw httpError(422, `${name} must be true or false`)
}

export const stringField = (fields: Fields, name: string, maxLength: number): string => {
  const v = fields[name]
  if (typeof v !== 'string' || v.trim() === '') throw httpError(422, `${name} is required`)
  if (v.length > maxLength) throw httpError(422, `${name} is too long`)
  return v.trim()
}

export const MAX_PAGE_LIMIT = 1000

/**
 * page (default 1) and the page size, read from `limit` or its alias `size` (default 300, spec §9). When both
 * are sent they must agree, so that a client never gets a page of a size it did not ask for.
 */
export const paging = (q: Fields, defaultLimit = DEFAULT_PAGE_LIMIT) => {
  const page = intField(q, 'page', { min: 1, max: 1_000_000, fallback: 1 })
  const sent = (name: string) =>
    q[name] === undefined || q[name] === null || q[name] === '' ? undefined : intField(q, name, { min: 1, max: MAX_PAGE_LIMIT })
  const [limitSent, sizeSent] = [sent('limit'), sent('size')]
  if (limitSent !== undefined && sizeSent !== undefined && limitSent !== sizeSent) throw httpError(422, 'size and limit differ')
  const limit = limitSent ?? sizeSent ?? defaultLimit
  return { page, limit, offset: (page - 1) * limit }
}

/** A history page (operations, withdrawals): page and size (alias limit), 10 a page by default (spec §7, §9). */
export const historyPaging = (q: Fields) => paging(q, HISTORY_PAGE_SIZE)

export const sortOrder = (q: Fields): 'ASC' | 'DESC' => {
  const v = q.sort_order ?? 'desc'
  if (v === 'desc' || v === 'DESC') return 'DESC'
  if (v === 'asc' || v === 'ASC') return 'ASC'
  throw httpError(422, 'sort_order must be asc or desc')
}
