import type { ServerContext } from '../domain/context.ts'
import { allRows, big, getRow, num, str } from '../db/sql.ts'
import { readChainSeen, TREASURY_CURSOR } from '../domain/chain-cursor.ts'
import { lastRecordedPrice } from '../domain/recorded-price.ts'
import { hourOutflow, isPayoutPauseOn, readBreaker } from '../chain/payout-breaker.ts'

/**
 * What the metrics read from the database at scrape time: the same rows on every instance, so each
 * instance reports the same truth, and nothing in the money paths is touched to count it. Amounts are
 * nanoton (bigint); the metrics turn them into TON at the very end (ton-float.ts).
 */
export interface DatabaseFigures {
  /** chain_payments by outcome (activated, refunded, kept, ignored, held): the watcher's decisions so far. */
  readonly payments: ReadonlyArray<{ readonly outcome: string; readonly count: number; readonly nano: bigint }>
  /** outgoing_payments by kind (sale, refund, sweep) and state (queued, sending, paid, failed, cancelled). */
  readonly payouts: ReadonlyArray<{ readonly kind: string; readonly state: string; readonly count: number; readonly nano: bigint }>
  /** withdrawals (sales) by status (pending, held, sending, completed, failed), with their TON. */
  readonly sales: ReadonlyArray<{ readonly status: string; readonly count: number; readonly nano: bigint }>
  /** outbox rows by state (pending, sending, sent, refused, skipped, uncertain). */
  readonly outbox: ReadonlyArray<{ readonly state: string; readonly count: number }>
  /** When the oldest message still pending was written (unix seconds), or null. */
  readonly outboxOldestPendingAt: number | null
  /** Active positions whose term has ended: what the periodic pass has yet to complete. */
  readonly due: { readonly mints: number; readonly stakes: number }
  /** The chain time up to which the treasury's watcher has handled everything (chain_seen), or null. */
  readonly watcherSeenUntil: number | null
  /** What left the treasury, or may have, in the last hour (the breaker's own figure, server/chain/payout-breaker.ts). */
  readonly hourOutflowNano: bigint
  /** How many causes the last payout pass found to wait (0: payouts go), or null before any pass. */
  readonly breakerCauses: number | null
  /** The operator's pause (npm run admin -- payouts pause). */
  readonly paused: boolean
  /** When the newest recorded price was set (unix seconds), or null. */
  readonly lastPriceAt: number | null
}

const grouped = async <K extends string>(ctx: ServerContext, sql: string, keys: readonly K[], ...params: unknown[]) =>
  (await allRows(ctx.db, sql, ...params)).map((r) => ({
    ...(Object.fromEntries(keys.map((k) => [k, str(r, k)])) as Record<K, string>),
    count: num(r, 'n'),
    nano: r.v === undefined ? 0n : big(r, 'v'),
  }))

const count = async (ctx: ServerContext, sql: string, ...params: unknown[]) => num((await getRow(ctx.db, sql, ...params))!, 'n')

/** Reads every figure; each statement is a grouped count over an indexed column or a small table. */
export const readDatabaseFigures = async (ctx: ServerContext): Promise<DatabaseFigures> => {
  const now = ctx.now()
  const oldest = await getRow(ctx.db, `SELECT MIN(created_at) AS at FROM outbox WHERE state = 'pending'`)
  const breaker = await readBreaker(ctx.db)
  const price = await lastRecordedPrice(ctx.db)
  return {
    payments: await grouped(ctx, 'SELECT outcome, COUNT(*) AS n, COALESCE(SUM(amount_nano), 0) AS v FROM chain_payments GROUP BY outcome', ['outcome']),
    payouts: await grouped(
      ctx,
      'SELECT kind, state, COUNT(*) AS n, COALESCE(SUM(amount_nano), 0) AS v FROM outgoing_payments GROUP BY kind, state',
      ['kind', 'state'],
    ),
    sales: await grouped(ctx, 'SELECT status, COUNT(*) AS n, COALESCE(SUM(amount_ton), 0) AS v FROM withdrawals GROUP BY status', ['status']),
    outbox: (await grouped(ctx, 'SELECT state, COUNT(*) AS n FROM outbox GROUP BY state', ['state'])).map(({ state, count }) => ({ state, count })),
    outboxOldestPendingAt: oldest?.at === null || oldest?.at === undefined ? null : num(oldest, 'at'),
    due: {
      mints: await count(ctx, `SELECT COUNT(*) AS n FROM mints WHERE status = 'active' AND ends_at <= ?`, now),
      stakes: await count(ctx, `SELECT COUNT(*) AS n FROM stakes WHERE status = 'active' AND ends_at <= ?`, now),
    },
    watcherSeenUntil: await readChainSeen(ctx, TREASURY_CURSOR),
    hourOutflowNano: await hourOutflow(ctx),
    breakerCauses: breaker ? breaker.causes.length : null,
    paused: await isPayoutPauseOn(ctx.db),
    lastPriceAt: price ? price.at : null,
  }
}
