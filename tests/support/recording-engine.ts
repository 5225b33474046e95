import type { Db, Engine } from '../../server/db/engine.ts'

/** One statement an engine ran: its text and parameters, as the caller gave them. */
export interface RecordedStatement {
  readonly text: string
  readonly params: ReadonlyArray<unknown>
}

const recordingDb = <D extends Db>(db: D, seen: RecordedStatement[]): Db => ({
  get dialect() {
    return db.dialect
  },
  get inTransaction() {
    return db.inTransaction
  },
  one: (text, ...params) => (seen.push({ text, params }), db.one(text, ...params)),
  all: (text, ...params) => (seen.push({ text, params }), db.all(text, ...params)),
  run: (text, ...params) => (seen.push({ text, params }), db.run(text, ...params)),
  insert: (text, ...params) => (seen.push({ text, params }), db.insert(text, ...params)),
})

/**
 * The engine itself, also noting every statement run on it and inside its transactions: a test runs
 * real code on a real database and then asks the database how it planned what that code sent.
 */
export const recordingEngine = (engine: Engine): { readonly engine: Engine; readonly seen: RecordedStatement[] } => {
  const seen: RecordedStatement[] = []
  const outer = recordingDb(engine, seen)
  return {
    seen,
    engine: {
      ...outer,
      get dialect() {
        return engine.dialect
      },
      get inTransaction() {
        return engine.inTransaction
      },
      where: engine.where,
      transaction: (fn, options) => engine.transaction((tx) => fn(recordingDb(tx, seen)), options),
      close: () => engine.close(),
    },
  }
}
