import { queueNotice } from './outbox.ts'
import { allRows, big, getRow, num, run, str, type Row } from '../db/sql.ts'
import { inTx, type ServerContext } from './context.ts'
import { moveBalance } from './ledger.ts'
import { formatNano } from './money.ts'
import { earnedAfter, type RewardTerms } from './rewards.ts'
import { queueMint, queueStake } from './user-events.ts'
import { ME_COLUMNS, type MeRow, type MintRow, positionColumns, type StakeRow } from './rows.ts'
import { userRow } from './users.ts'
import { UnknownSessionUser } from './errors.ts'

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
 * of the term status completed with principal and reward credited to balance_token. True when it
 * completed it here (the user's balances changed).
 */
export const settlePosition = async (ctx: ServerContext, table: PositionTable, row: Row, now: number): Promise<boolean> => {
  if (str(row, 'status') !== 'active' || row.activated_at === null) return false
  const id = big(row, 'id')
  const userId = big(row, 'user_id')
  const endsAt = big(row, 'ends_at')
  const at = BigInt(now) < endsAt ? BigInt(now) : endsAt
  const earned = earnedAfter(termsOf(row), at - big(row, 'activated_at'))
  if (BigInt(now) >= endsAt) {
    return inTx(ctx, async (ctx) => {
      const done = await run(
        ctx.db,
        `UPDATE ${table} SET status = 'completed', earned_reward = max_reward, last_updated_at = ? WHERE id = ? AND status = 'active'`,
        endsAt,
        id,
      )
      if (done.changes === 0) return false
      const kind = KIND[table]
      await moveBalance(ctx, userId, 'balance_token', big(row, 'total_amount'), kind.principal, `${kind.label} #${id} principal returned`, big(row, 'locked_nano'))
      await moveBalance(ctx, userId, 'balance_token', big(row, 'max_reward'), kind.reward, `${kind.label} #${id} reward`)
      if (table === 'mints') queueMint(ctx, userId, id)
      else queueStake(ctx, userId, id)
      const amount = formatNano(big(row, 'total_amount'))
      await queueNotice(ctx, userId, table === 'mints' ? 'bond_completed' : 'stake_completed', table === 'mints' ? { mint_id: Number(id), amount } : { stake_id: Number(id), amount })
      return true
    })
  }
  // A reward that grew is one autocommitted UPDATE (a transaction only where balances move).
  if (earned !== big(row, 'earned_reward'))
    await run(ctx.db, `UPDATE ${table} SET earned_reward = ?, last_updated_at = ? WHERE id = ? AND status = 'active'`, earned, now, id)
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
const activeOf = (prefix: string) => {
  const cols = SETTLE_COLUMNS.map((c) => `${c} AS ${prefix}${c}`).join(', ')
  return `SELECT 'mints' AS ${prefix}kind, ${cols} FROM mints WHERE user_id = ? AND status = 'active'
    UNION ALL SELECT 'stakes' AS ${prefix}kind, ${cols} FROM stakes WHERE user_id = ? AND status = 'active'`
}
const ACTIVE_OF_USER = `${activeOf('')} ORDER BY kind, id`

/** Settles each row (`kind` naming its table) in order; true when one of them completed. */
const settleRows = async (ctx: ServerContext, rows: ReadonlyArray<Row>, now: number): Promise<boolean> => {
  let completed = false
  for (const row of rows) if (await settlePosition(ctx, str(row, 'kind') as PositionTable, row, now)) completed = true
  return completed
}

/** Settles a user's active bonds and stakes (on read), or everyone's (the periodic job). */
export const settleUser = async (ctx: ServerContext, userId: bigint | null): Promise<void> => {
  const now = ctx.now()
  if (userId !== null) {
    await settleRows(ctx, await allRows(ctx.db, ACTIVE_OF_USER, userId, userId), now)
    return
  }
  const [mints, stakes] = await Promise.all([
    allRows(ctx.db, `SELECT * FROM mints WHERE status = 'active'`),
    allRows(ctx.db, `SELECT * FROM stakes WHERE status = 'active'`),
  ])
  for (const row of mints) await settlePosition(ctx, 'mints', row, now)
  for (const row of stakes) await settlePosition(ctx, 'stakes', row, now)
}


/**
 * The user's row after settling their bonds and stakes, for /user/me: the row and the active
 * positions come in one statement (the user's columns, each position's under `p_`); the row is read
 * again only when settling completed a position (credited the balance). A read with nothing to
 * complete opens no transaction.
 */
const P = 'p_'
const USER_WITH_ACTIVE = `SELECT ${ME_COLUMNS.map((c) => `u.${c}`).join(', ')}, p.* FROM users u
  LEFT JOIN (${activeOf(P)}) p ON p.${P}user_id = u.id
  WHERE u.id = ? ORDER BY p.${P}kind, p.${P}id`
export const settledUserRow = async (ctx: ServerContext, userId: bigint): Promise<MeRow> => {
  const now = ctx.now()
  const rows = await allRows(ctx.db, USER_WITH_ACTIVE, userId, userId, userId)
  const first = rows[0]
  if (!first) throw new UnknownSessionUser()
  const positions: Row[] = []
  for (const r of rows) {
    if (r[`${P}id`] === null) continue
    const position: Row = { kind: r[`${P}kind`]! }
    for (const c of SETTLE_COLUMNS) position[c] = r[`${P}${c}`] ?? null
    positions.push(position)
  }
  if (await settleRows(ctx, positions, now)) return userRow(ctx, userId)
  const user: Record<string, Row[string]> = {}
  for (const c of ME_COLUMNS) user[c] = first[c] ?? null
  return user as MeRow
}

/** One page of a user's bonds or stakes, newest first, and how many there are. */
export const pageOf = async <T extends PositionTable>(ctx: ServerContext, table: T, userId: bigint, limit: number, offset: number) => {
  const rows = await allRows<PositionRows[T]>(ctx.db, `SELECT ${positionColumns(table)} FROM ${table} WHERE user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?`, userId, limit, offset)
  const total = (await getRow(ctx.db, `SELECT COUNT(*) AS n FROM ${table} WHERE user_id = ?`, userId))!
  return { rows, total: num(total, 'n') }
}
