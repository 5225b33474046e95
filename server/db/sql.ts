import type { Db, Row } from './engine.ts'

export type { Row } from './engine.ts'

/** One row, typed as the caller's table row (`R`, e.g. server/domain/rows.ts's MintRow) or a plain Row. */
export const getRow = <R extends Row = Row>(db: Db, text: string, ...params: unknown[]): Promise<R | undefined> => db.one<R>(text, ...params)

export const allRows = <R extends Row = Row>(db: Db, text: string, ...params: unknown[]): Promise<R[]> => db.all<R>(text, ...params)

export const run = (db: Db, text: string, ...params: unknown[]) => db.run(text, ...params)

/** An INSERT into a table keyed by `id`; the new id. */
export const insertRow = (db: Db, text: string, ...params: unknown[]): Promise<bigint> => db.insert(text, ...params)

/**
 * A column in a condition that must not choose the index: a batch named by its ids (`id IN (…) AND
 * status = 'active'`) is read by its primary key, whatever the statistics say. On SQLite the unary
 * `+` is the documented way to keep a term off an index (without statistics the planner took the
 * status index and walked every running position, per batch); PostgreSQL takes the column as is.
 */
export const unindexed = (db: Db, column: string): string => (db.dialect === 'sqlite' ? `+${column}` : column)

/** Column readers: rows come back with BigInt integers from both engines. */
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
