import { ownNumber, queueNotice } from './outbox.ts'
import { allRows, big, bool, getRow, num, run, str, type Row } from '../db/sql.ts'
import { inTx, type ServerContext } from './context.ts'
import { moveBalance } from './ledger.ts'
import { formatNano } from './money.ts'
import { earnedAfter, type RewardTerms } from './rewards.ts'
import { queueMint, queueStake } from './user-events.ts'
import { ME_COLUMNS, type MeRow, type MintRow, type StakeRow } from './rows.ts'
import { userRow } from './users.ts'
import { UnknownSessionUser } from './errors.ts'
import { COLLECTIVE_BONUS_COLUMN, collectiveBonusOf } from './settings.ts'

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
 * Completes one active record whose term has ended: status completed, earned_reward = max_reward,
 * principal and reward credited to balance_token, in the caller's transaction (or its own). True
 * when it completed it here; a record another request completed first is left alone.
 */
export const completePosition = (ctx: ServerContext, table: PositionTable, row: Row): Promise<boolean> =>
  inTx(ctx, async (ctx) => {
    const id = big(row, 'id')
    const userId = big(row, 'user_id')
    const done = await run(
      ctx.db,
      `UPDATE ${table} SET status = 'completed', earned_reward = max_reward, last_updated_at = ? WHERE id = ? AND status = 'active'`,
      big(row, 'ends_at'),
      id,
    )
    if (done.changes === 0) return false
    const kind = KIND[table]
    await moveBalance(ctx, userId, 'balance_token', big(row, 'total_amount'), kind.principal, `${kind.label} #${id} principal returned`, big(row, 'locked_nano'))
    await moveBalance(ctx, userId, 'balance_token', big(row, 'max_reward'), kind.reward, `${kind.label} #${id} reward`)
    if (table === 'mints') queueMint(ctx, userId, id)
    else queueStake(ctx, userId, id)
    const amount = formatNano(big(row, 'total_amount'))
    const number = await ownNumber(ctx, table, id)
    await queueNotice(ctx, userId, table === 'mints' ? 'bond_completed' : 'stake_completed', table === 'mints' ? { mint_id: Number(id), number, amount } : { stake_id: Number(id), number, amount })
    return true
  })

const isDue = (row: Row, now: number): boolean =>
  str(row, 'status') === 'active' && row.activated_at !== null && row.ends_at !== null && BigInt(now) >= big(row, 'ends_at')

/** The reward an active record has earned at `now`: from its own rates (frozen at its start) and the time alone. */
export const earnedAt = (row: Row, now: number): bigint => {
  const endsAt = big(row, 'ends_at')
  const at = BigInt(now) < endsAt ? BigInt(now) : endsAt
  return earnedAfter(termsOf(row), at - big(row, 'activated_at'))
}

/**
 * A record as of `now`, for reading: an active one shows the reward earned so far, with
 * last_updated_at = now (the app adds the per-second rate from there, spec §4). Nothing is written:
 * a running position's row changes only when it starts, moves, is cancelled or completes.
 */
export const positionAsOf = <R extends Row>(row: R, now: number): R => {
  if (str(row, 'status') !== 'active' || row.activated_at === null || row.ends_at === null) return row
  return { ...row, earned_reward: earnedAt(row, now), last_updated_at: BigInt(now) }
}

/**
 * Brings one active record up to `now` and stores it: earned_reward from the start of its term, and
 * at the end of the term completes it. For the actions that change this one record next (cancel,
 * move to staking), which read its stored reward. True when it completed it here.
 */
export const settlePosition = async (ctx: ServerContext, table: PositionTable, row: Row, now: number): Promise<boolean> => {
  if (str(row, 'status') !== 'active' || row.activated_at === null) return false
  if (isDue(row, now)) return completePosition(ctx, table, row)
  const earned = earnedAt(row, now)
  if (earned !== big(row, 'earned_reward'))
    await run(ctx.db, `UPDATE ${table} SET earned_reward = ?, last_updated_at = ? WHERE id = ? AND status = 'active'`, earned, now, big(row, 'id'))
  return false
}

/** The columns settling reads, the same in both tables. */
const SETTLE_COLUMNS = [
  'id',
  'user_id',
  'status',
  'activated_at',
  'ends_at',
  'total_amount',
  'daily_reward',
  'hold_bonus',
  'collective_bonus',
  'investment_bonus',
  'earned_reward',
  'max_reward',
  'tariff_days',
  'locked_nano',
] as const

/** A user's active bonds then stakes (`kind` names the table), each in id order: one statement for both tables. */
const COLUMNS = SETTLE_COLUMNS.join(', ')
const ACTIVE_OF_USER = `SELECT 'mints' AS kind, ${COLUMNS} FROM mints WHERE user_id = ? AND status = 'active'
    UNION ALL SELECT 'stakes' AS kind, ${COLUMNS} FROM stakes WHERE user_id = ? AND status = 'active' ORDER BY kind, id`

/** Completes the rows (`kind` naming its table) whose term ended, in order; true when one of them completed. */
const completeDueRows = async (ctx: ServerContext, rows: ReadonlyArray<Row>, now: number): Promise<boolean> => {
  let completed = false
  for (const row of rows) if (isDue(row, now) && (await completePosition(ctx, str(row, 'kind') as PositionTable, row))) completed = true
  return completed
}

/**
 * Settles a user's bonds and stakes on read: those whose term ended are completed (paid out);
 * running ones are not written (their reward is computed when read). Everyone's due positions are
 * completed by the periodic pass (settle-pass.ts). True when one of them completed.
 */
export const settleUser = async (ctx: ServerContext, userId: bigint, now = ctx.now()): Promise<boolean> =>
  completeDueRows(ctx, await allRows(ctx.db, ACTIVE_OF_USER, userId, userId), now)


/**
 * What /user/me answers with: the user's row after settling their bonds and stakes, and the platform's
 * collective bonus. One statement reads the row, the bonus and whether any of the user's positions is
 * due (an index probe per table, no position read); only then are the active positions read, the due
 * ones completed and the row read again. A read with nothing due reads no position and opens no
 * transaction: between two of a position's ends, that is every read.
 */
const dueOf = (table: PositionTable) =>
  `EXISTS (SELECT 1 FROM ${table} WHERE user_id = u.id AND status = 'active' AND activated_at IS NOT NULL AND ends_at <= ?)`
const USER_AND_DUE = `SELECT ${ME_COLUMNS.map((c) => `u.${c}`).join(', ')}, ${COLLECTIVE_BONUS_COLUMN} AS collective_bonus_setting,
  CASE WHEN ${dueOf('mints')} OR ${dueOf('stakes')} THEN 1 ELSE 0 END AS due FROM users u WHERE u.id = ?`
export const settledMe = async (ctx: ServerContext, userId: bigint): Promise<{ readonly user: MeRow; readonly collectiveBonus: bigint }> => {
  const now = ctx.now()
  const row = await getRow(ctx.db, USER_AND_DUE, now, now, userId)
  if (!row) throw new UnknownSessionUser()
  const bonus = row.collective_bonus_setting
  const collectiveBonus = collectiveBonusOf(bonus === null || bonus === undefined ? null : String(bonus))
  if (bool(row, 'due') && (await settleUser(ctx, userId, now)))
    return { user: await userRow(ctx, userId), collectiveBonus }
  const user: Record<string, Row[string]> = {}
  for (const c of ME_COLUMNS) user[c] = row[c] ?? null
  return { user: user as MeRow, collectiveBonus }
}

/**
 * One page of a user's bonds or stakes, newest first, as of now, and how many there are. One
 * statement reads the page and the user's count together (one snapshot), so the i-th row of a page
 * at `offset` is the user's number `total - offset - i`: the same as counting the user's ids up to
 * it (`positionColumns`), which costs a count per row, the whole list's length for each.
 */
export const pageOf = async <T extends PositionTable>(ctx: ServerContext, table: T, userId: bigint, limit: number, offset: number) => {
  const now = ctx.now()
  const stored = await allRows(
    ctx.db,
    `SELECT *, (SELECT COUNT(*) FROM ${table} WHERE user_id = ?) AS of_user FROM ${table} WHERE user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?`,
    userId,
    userId,
    limit,
    offset,
  )
  // A page past the end has no row to carry the count.
  const total = stored[0] ? num(stored[0], 'of_user') : num((await getRow(ctx.db, `SELECT COUNT(*) AS n FROM ${table} WHERE user_id = ?`, userId))!, 'n')
  const rows = stored.map(({ of_user: _, ...r }, i) => positionAsOf({ ...r, user_number: BigInt(total - offset - i) } as unknown as PositionRows[T], now))
  return { rows, total }
}
