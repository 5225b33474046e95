import { big, getRow } from '../db/sql.ts'
import type { Db } from '../db/engine.ts'
import { TOTAL_COLUMNS } from '../db/totals-migration.ts'

/** The platform's running totals (server/db/totals-migration.ts), in nano-units and counts. */
export type PlatformTotals = Record<(typeof TOTAL_COLUMNS)[number], bigint>

/** The totals as kept: one statement over the shards, whatever the number of rows. */
export const readTotals = async (db: Db): Promise<PlatformTotals> => {
  const row = (await getRow(db, `SELECT ${TOTAL_COLUMNS.map((c) => `COALESCE(SUM(${c}), 0) AS ${c}`).join(', ')} FROM platform_totals`))!
  return Object.fromEntries(TOTAL_COLUMNS.map((c) => [c, big(row, c)])) as PlatformTotals
}

/** The totals recomputed from the rows: full scans, for the operator's check only. */
export const recomputeTotals = async (db: Db): Promise<PlatformTotals> => {
  const v = async (text: string) => big((await getRow(db, text))!, 'v')
  return {
    users: await v('SELECT COUNT(*) AS v FROM users'),
    locked:
      (await v(`SELECT COALESCE(SUM(total_amount), 0) AS v FROM mints WHERE status = 'active'`)) +
      (await v(`SELECT COALESCE(SUM(total_amount), 0) AS v FROM stakes WHERE status = 'active'`)),
    active_bonds: await v(`SELECT COUNT(*) AS v FROM mints WHERE status = 'active'`),
    active_stakes: await v(`SELECT COUNT(*) AS v FROM stakes WHERE status = 'active'`),
    rewards_paid: await v(`SELECT COALESCE(SUM(amount), 0) AS v FROM operations WHERE type IN ('bond_reward', 'stake_reward')`),
    withdrawn: await v('SELECT COALESCE(SUM(token_amount), 0) AS v FROM withdrawals'),
    ton_raised: await v('SELECT COALESCE(SUM(paid_nano), 0) AS v FROM mints WHERE paid_nano IS NOT NULL'),
  }
}

export interface TotalsDrift {
  readonly column: string
  readonly kept: bigint
  readonly recomputed: bigint
}

/**
 * Where the kept totals differ from the rows (empty when they agree). Read in one transaction, so
 * both sides see the same rows (PostgreSQL: a snapshot; SQLite: the one writer waits).
 */
export const verifyTotals = async (engine: { transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> }): Promise<TotalsDrift[]> =>
  engine.transaction(async (tx) => {
    const kept = await readTotals(tx)
    const recomputed = await recomputeTotals(tx)
    return TOTAL_COLUMNS.filter((c) => kept[c] !== recomputed[c]).map((c) => ({ column: c, kept: kept[c], recomputed: recomputed[c] }))
  })
