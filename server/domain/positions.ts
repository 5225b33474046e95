import { allRows, big, getRow, num, run, str, type Row } from '../db/sql.ts'
import { inTx, type ServerContext } from '../context.ts'
import { moveBalance } from './ledger.ts'
import { earnedAfter, type RewardTerms } from './rewards.ts'
import { queueMint, queueStake } from './user-events.ts'
import type { MintRow, StakeRow } from './rows.ts'

/** Bonds (mints) and stakes share their columns and their reward rule. */
export type PositionTable = 'mints' | 'stakes'
interface PositionRows {
  readonly mints: MintRow
  readonly stakes: StakeRow
}

export const termsOf = (row: Row): RewardTerms => ({
  total: big(row, 'total_amount'),
  percentPerDay: big(row, 'daily_reward') + big(row, 'hold_bonus') + big(row, 'collective_bonus') + big(row, 'investment_bonus'),
  days: big(row, 'tariff_days'),
})

const KIND = {
  mints: { principal: 'bond_principal', reward: 'bond_reward', label: 'Bond' },
  stakes: { principal: 'stake_principal', reward: 'stake_reward', label: 'Stake' },
} as const

/**
 * Brings one active record up to `now`: earned_reward from the start of its term, and at the end
 * of the term status completed with principal and reward credited to balance_token.
 */
export const settlePosition = async (ctx: ServerContext, table: PositionTable, row: Row, now: number): Promise<void> => {
  if (str(row, 'status') !== 'active' || row.activated_at === null) return
  const id = big(row, 'id')
  const userId = big(row, 'user_id')
  const endsAt = big(row, 'ends_at')
  const at = BigInt(now) < endsAt ? BigInt(now) : endsAt
  const earned = earnedAfter(termsOf(row), at - big(row, 'activated_at'))
  if (BigInt(now) >= endsAt) {
    await inTx(ctx, async (ctx) => {
      const done = await run(
        ctx.db,
        `UPDATE ${table} SET status = 'completed', earned_reward = max_reward, last_updated_at = ? WHERE id = ? AND status = 'active'`,
        endsAt,
        id,
      )
      if (done.changes === 0) return
      const kind = KIND[table]
      await moveBalance(ctx, userId, 'balance_token', big(row, 'total_amount'), kind.principal, `${kind.label} #${id} principal returned`, big(row, 'locked_nano'))
      await moveBalance(ctx, userId, 'balance_token', big(row, 'max_reward'), kind.reward, `${kind.label} #${id} reward`)
      if (table === 'mints') queueMint(ctx, userId, id)
      else queueStake(ctx, userId, id)
    })
    return
  }
  if (earned !== big(row, 'earned_reward'))
    await run(ctx.db, `UPDATE ${table} SET earned_reward = ?, last_updated_at = ? WHERE id = ? AND status = 'active'`, earned, now, id)
}

/** Settles a user's active bonds and stakes (on read), or everyone's (the periodic job). */
export const settleUser = async (ctx: ServerContext, userId: bigint | null): Promise<void> => {
  const now = ctx.now()
  const active = (table: PositionTable) =>
    userId === null
      ? allRows(ctx.db, `SELECT * FROM ${table} WHERE status = 'active'`)
      : allRows(ctx.db, `SELECT * FROM ${table} WHERE user_id = ? AND status = 'active'`, userId)
  // Both reads at once: on PostgreSQL they go out on two connections.
  const [mints, stakes] = await Promise.all([active('mints'), active('stakes')])
  for (const row of mints) await settlePosition(ctx, 'mints', row, now)
  for (const row of stakes) await settlePosition(ctx, 'stakes', row, now)
}

/** One page of a user's bonds or stakes, newest first, and how many there are. */
export const pageOf = async <T extends PositionTable>(ctx: ServerContext, table: T, userId: bigint, limit: number, offset: number) => {
  const rows = await allRows<PositionRows[T]>(ctx.db, `SELECT * FROM ${table} WHERE user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?`, userId, limit, offset)
  const total = (await getRow(ctx.db, `SELECT COUNT(*) AS n FROM ${table} WHERE user_id = ?`, userId))!
  return { rows, total: num(total, 'n') }
}
