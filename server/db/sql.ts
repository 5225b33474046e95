import type { Database, Statement } from 'better-sqlite3'

const cache = new WeakMap<Database, Map<string, Statement>>()

/** A prepared statement, prepared once per database. */
export const sql = (db: Database, text: string): Statement => {
  let byText = cache.get(db)
  if (!byText) {
    byText = new Map()
    cache.set(db, byText)
  }
  let stmt = byText.get(text)
  if (!stmt) {
    stmt = db.prepare(text)
    byText.set(text, stmt)
  }
  return stmt
}

export type Row = Record<string, bigint | string | null>

/** One row, typed as the caller's table row (`R`, e.g. server/domain/rows.ts's MintRow) or a plain Row. */
export const getRow = <R extends Row = Row>(db: Database, text: string, ...params: unknown[]): R | undefined =>
  sql(db, text).get(...params) as R | undefined

export const allRows = <R extends Row = Row>(db: Database, text: string, ...params: unknown[]): R[] => sql(db, text).all(...params) as R[]

export const run = (db: Database, text: string, ...params: unknown[]) => sql(db, text).run(...params)

/** Column readers: rows come back with BigInt integers (safeIntegers). */
export const big = (row: Row, col: string): bigint => {
  const v = row[col]
  if (typeof v === 'bigint') return v
  if (typeof v === 'number') return BigInt(v)
  throw new Error(`column ${col} is not an integer`)
}
export const num = (row: Row, col: string): number => Number(big(row, col))
export const numOrNull = (row: Row, col: string): number | null => (row[col] === null ? null : num(row, col))
export const str = (row: Row, col: string): string => String(row[col])
export const bool = (row: Row, col: string): boolean => big(row, col) !== 0n
