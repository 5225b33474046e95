import { setImmediate as yieldToLoop } from 'node:timers/promises'
import type { Db } from './engine.ts'

/** Rows one statement of a prune deletes at most. */
export const DELETE_BATCH = 500

/**
 * Deletes the rows of `table` that match `where`, at most `batch` per statement, yielding to the
 * event loop between statements, until none is left (or `signal` aborts). `where` must be served by
 * an index, so each statement finds only what it deletes. The rows are named by the engine's own row
 * address (SQLite's rowid, PostgreSQL's ctid, read as an array so the delete is a TID scan) and the
 * condition is asked again on delete, so a row changed in between is left alone. Returns how many
 * rows went.
 */
export const deleteInBatches = async (
  db: Db,
  table: string,
  where: string,
  params: ReadonlyArray<unknown>,
  o: { readonly batch?: number; readonly signal?: AbortSignal } = {},
): Promise<number> => {
  const batch = o.batch ?? DELETE_BATCH
  const text =
    db.dialect === 'sqlite'
      ? `DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE ${where} LIMIT ?) AND ${where}`
      : `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${table} WHERE ${where} LIMIT ?)) AND ${where}`
  let deleted = 0
  for (;;) {
    if (o.signal?.aborted) return deleted
    const { changes } = await db.run(text, ...params, batch, ...params)
    deleted += changes
    if (changes < batch) return deleted
    await yieldToLoop()
  }
}
