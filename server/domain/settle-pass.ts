import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { allRows, big, type Row } from '../db/sql.ts'
import { inTx, type ServerContext } from '../context.ts'
import { completePosition, type PositionTable } from './positions.ts'

/**
 * The periodic pass. A running position is never written: its reward follows from its own frozen
 * rates and the time (positions.ts `positionAsOf`). The pass only completes positions whose term
 * has ended, found on the (status, ends_at) index, in keyset batches of BATCH rows, one short
 * transaction each, yielding to the event loop between batches. So its cost is the number of
 * positions due, not the number active, and no batch holds the loop long.
 */
export const SETTLE_BATCH = 200

export interface PassResult {
  /** Positions this pass completed (paid out). */
  readonly completed: number
  /** Batches (transactions) it ran. */
  readonly batches: number
  /** True when the signal stopped it before it had seen every due position. */
  readonly aborted: boolean
}

const COLUMNS =
  'id, user_id, status, activated_at, ends_at, total_amount, max_reward, locked_nano'

const dueBatch = (ctx: ServerContext, table: PositionTable, now: number, after: { endsAt: bigint; id: bigint } | null, limit: number) =>
  after === null
    ? allRows(ctx.db, `SELECT ${COLUMNS} FROM ${table} WHERE status = 'active' AND ends_at <= ? ORDER BY ends_at, id LIMIT ?`, now, limit)
    : allRows(
        ctx.db,
        `SELECT ${COLUMNS} FROM ${table} WHERE status = 'active' AND ends_at <= ? AND (ends_at > ? OR (ends_at = ? AND id > ?))
         ORDER BY ends_at, id LIMIT ?`,
        now,
        after.endsAt,
        after.endsAt,
        after.id,
        limit,
      )

/** Completes every bond and stake due at `ctx.now()`, batch by batch; stops between batches when `signal` aborts. */
export const completeDuePositions = async (
  ctx: ServerContext,
  o: { readonly signal?: AbortSignal; readonly batch?: number } = {},
): Promise<PassResult> => {
  const now = ctx.now()
  const limit = o.batch ?? SETTLE_BATCH
  let completed = 0
  let batches = 0
  for (const table of ['mints', 'stakes'] as const) {
    let after: { endsAt: bigint; id: bigint } | null = null
    for (;;) {
      if (o.signal?.aborted) return { completed, batches, aborted: true }
      // The batch is read and completed in one transaction: a row another request completed
      // meanwhile is skipped by completePosition's `status = 'active'` guard.
      const rows: Row[] = await inTx(ctx, async (ctx) => {
        const rows = await dueBatch(ctx, table, now, after, limit)
        for (const row of rows) if (await completePosition(ctx, table, row)) completed++
        return rows
      })
      batches++
      const last = rows[rows.length - 1]
      if (!last || rows.length < limit) break
      after = { endsAt: big(last, 'ends_at'), id: big(last, 'id') }
      await yieldToLoop()
    }
  }
  return { completed, batches, aborted: false }
}
