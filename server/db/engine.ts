/**
 * The storage seam: every read and write of the backend goes through a `Db`, the same for both
 * engines (server/db/sqlite-engine.ts, server/db/postgres-engine.ts). SQL is written once, with `?`
 * placeholders, in the subset both engines speak; integers (money in nano-units, ids, times) come
 * back as bigint from both, never as a float.
 */
export type Row = Record<string, bigint | string | null>

export type Dialect = 'sqlite' | 'postgres'

/** A connection, or one transaction on it. */
export interface Db {
  readonly dialect: Dialect
  /** True inside `Engine.transaction`. */
  readonly inTransaction: boolean
  one<R extends Row = Row>(text: string, ...params: unknown[]): Promise<R | undefined>
  all<R extends Row = Row>(text: string, ...params: unknown[]): Promise<R[]>
  /** A write; how many rows it changed. */
  run(text: string, ...params: unknown[]): Promise<{ readonly changes: number }>
  /** An INSERT into a table whose key is `id`; the new row's id. */
  insert(text: string, ...params: unknown[]): Promise<bigint>
}

export interface TransactionOptions {
  readonly isolation?: 'serializable' | 'read committed'
}

export interface Engine extends Db {
  /**
   * Runs `fn` as one transaction that keeps every invariant under concurrency: on SQLite one
   * transaction at a time (one writer); on PostgreSQL SERIALIZABLE, re-run from the start when the
   * database reports a serialisation failure or a deadlock. `fn` may therefore run more than once,
   * and must have no effect outside `tx` (live events are queued per attempt, server/domain/context.ts).
   * `isolation: 'read committed'` (PostgreSQL; SQLite ignores it) is for work whose every write
   * guards itself row by row and needs no snapshot across statements: the periodic pass's batches.
   */
  transaction<T>(fn: (tx: Db) => Promise<T>, options?: TransactionOptions): Promise<T>
  /** Where the data lives, for logs: a file path, ':memory:', or the PostgreSQL URL without its password. */
  readonly where: string
  /** PostgreSQL: its transaction pool's connections now (the metrics read it); absent on SQLite. */
  readonly poolState?: () => PoolState
  close(): Promise<void>
}

/** A connection pool's state: its size, the connections open and idle, and the callers waiting for one. */
export interface PoolState {
  readonly max: number
  readonly open: number
  readonly idle: number
  readonly waiting: number
}

/** A unique constraint refused a write (both engines' codes). */
export const isUniqueViolation = (e: unknown): boolean => {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505'
}

/** `AXIOM_DB` names a PostgreSQL database (postgres:// or postgresql://), else a SQLite file or ':memory:'. */
export const isPostgresUrl = (where: string): boolean => /^postgres(ql)?:\/\//i.test(where)
