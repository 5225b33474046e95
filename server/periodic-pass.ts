import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { pruneRefreshTokens } from './auth/tokens.ts'
import { pruneIdempotency } from './db/idempotency-table.ts'
import { pruneRateLimitHits } from './db/rate-limit-table.ts'
import { expireUnpaidBondsAsSeen, TREASURY_CURSOR } from './domain/chain-cursor.ts'
import type { ServerContext } from './domain/context.ts'
import { completeDuePositions, type PassResult } from './domain/settle-pass.ts'

/** How often the pass refreshes SQLite's statistics (`PRAGMA optimize`): SQLite asks for it hourly on a long-lived connection. */
export const OPTIMIZE_EVERY_S = 3_600

/** What one periodic pass did, step by step. */
export interface PeriodicPassResult {
  readonly due: PassResult
  /** Unpaid bonds cancelled. */
  readonly expired: number
  /** Rows pruned: stored create answers, refresh tokens and rate-limit counters past their time. */
  readonly pruned: { readonly idempotency: number; readonly refreshTokens: number; readonly rateLimitHits: number }
  /** True when this pass refreshed SQLite's statistics. */
  readonly optimized: boolean
}

export interface PeriodicPass {
  /** One pass: every step in bounded batches that yield to the event loop, stopping between batches once `signal` aborts. */
  run(o?: { readonly signal?: AbortSignal }): Promise<PeriodicPassResult>
}

/**
 * The worker's 30 s pass: completes the bonds and stakes whose term ended, cancels unpaid bonds
 * past their window (as far as the chain is seen: `watched`, a watcher credits payments here),
 * prunes what has expired, and on SQLite keeps the planner's statistics fresh. Each step finds only
 * what it changes, on an index, so its cost follows what is due, not what is stored; and each works
 * in short batches with the event loop free between them, so requests are served while it runs.
 */
export const periodicPass = (ctx: ServerContext, o: { readonly watched: boolean }): PeriodicPass => {
  let optimizedAt: number | null = null
  return {
    async run({ signal } = {}) {
      const due = await completeDuePositions(ctx, { signal })
      const stopped = { due, expired: 0, pruned: { idempotency: 0, refreshTokens: 0, rateLimitHits: 0 }, optimized: false }
      if (signal?.aborted) return stopped
      const expired = await expireUnpaidBondsAsSeen(ctx, { name: TREASURY_CURSOR, watched: o.watched }, { signal })
      if (signal?.aborted) return { ...stopped, expired }
      await yieldToLoop()
      const idempotency = await pruneIdempotency(ctx.db, ctx.now(), { signal })
      const refreshTokens = await pruneRefreshTokens(ctx, { signal })
      const rateLimitHits = await pruneRateLimitHits(ctx.db, Date.now(), { signal })
      const pruned = { idempotency, refreshTokens, rateLimitHits }
      let optimized = false
      if (ctx.db.dialect === 'sqlite' && !signal?.aborted && (optimizedAt === null || ctx.now() - optimizedAt >= OPTIMIZE_EVERY_S)) {
        await yieldToLoop()
        await ctx.db.run('PRAGMA optimize')
        optimizedAt = ctx.now()
        optimized = true
      }
      return { due, expired, pruned, optimized }
    },
  }
}
