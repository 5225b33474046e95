import type { Database, Statement } from 'better-sqlite3'
import type { Db, Engine, Row } from './engine.ts'
import { openDb } from './open-db.ts'

const attempt = <T>(f: () => T): Promise<T> => {
  try {
    return Promise.resolve(f())
  } catch (e) {
    return Promise.reject(e)
  }
}

/**
 * SQLite through better-sqlite3 (synchronous, in-process). One connection, one writer: a transaction
 * holds the connection from BEGIN to COMMIT, across the `await`s of its body, and every other
 * statement and transaction waits its turn, so no request ever sees another's uncommitted rows and
 * two transactions never interleave. A statement that finds the connection free runs at once.
 */
export const openSqlite = (path: string): Engine => {
  const db: Database = openDb(path)
  const statements = new Map<string, Statement>()
  const prepared = (text: string): Statement => {
    let s = statements.get(text)
    if (!s) statements.set(text, (s = db.prepare(text)))
    return s
  }
  const now = {
    one: <R extends Row>(text: string, params: unknown[]) => prepared(text).get(...params) as R | undefined,
    all: <R extends Row>(text: string, params: unknown[]) => prepared(text).all(...params) as R[],
    run: (text: string, params: unknown[]) => ({ changes: prepared(text).run(...params).changes }),
    insert: (text: string, params: unknown[]) => BigInt(prepared(text).run(...params).lastInsertRowid),
  }

  // The turn: `waiting` counts the holders queued or running; `tail` is the last one's end.
  let waiting = 0
  let tail: Promise<unknown> = Promise.resolve()
  const inTurn = <T>(fn: () => Promise<T>): Promise<T> => {
    waiting++
    const result = tail.then(fn).finally(() => void waiting--)
    tail = result.then(
      () => undefined,
      () => undefined,
    )
    return result
  }
  const outside = <T>(f: () => T): Promise<T> => (waiting === 0 ? attempt(f) : inTurn(() => attempt(f)))

  const tx: Db = {
    dialect: 'sqlite',
    inTransaction: true,
    one: (text, ...params) => attempt(() => now.one(text, params)),
    all: (text, ...params) => attempt(() => now.all(text, params)),
    run: (text, ...params) => attempt(() => now.run(text, params)),
    insert: (text, ...params) => attempt(() => now.insert(text, params)),
  }

  let closed = false
  return {
    dialect: 'sqlite',
    inTransaction: false,
    where: path,
    one: (text, ...params) => outside(() => now.one(text, params)),
    all: (text, ...params) => outside(() => now.all(text, params)),
    run: (text, ...params) => outside(() => now.run(text, params)),
    insert: (text, ...params) => outside(() => now.insert(text, params)),
    // IMMEDIATE: a concurrent admin CLI in another process waits (busy_timeout) rather than fails.
    transaction: (fn) =>
      inTurn(async () => {
        db.exec('BEGIN IMMEDIATE')
        try {
          const result = await fn(tx)
          db.exec('COMMIT')
          return result
        } catch (e) {
          if (db.inTransaction) db.exec('ROLLBACK')
          throw e
        }
      }),
    close: async () => {
      if (closed) return
      closed = true
      await inTurn(async () => db.close())
    },
  }
}
