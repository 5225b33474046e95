import { getRow, run, big } from '../db/sql.ts'
import { BalanceLimitExceeded, InsufficientBalance, NotFound, WelcomeTokensLocked } from './errors.ts'
import { inTx, type ServerContext } from './context.ts'
import { formatNano, SQLITE_MAX_INTEGER } from './money.ts'
import { queueBalance } from './user-events.ts'

export const BALANCE_COLUMNS = ['balance_token', 'task_balance', 'referral_balance'] as const
export type BalanceColumn = (typeof BALANCE_COLUMNS)[number]

/**
 * Operation types that bring tokens in from outside the ledger (the rest move tokens between a
 * user's balances, bonds, links and withdrawals). The conservation law is stated over these.
 */
export const EXTERNAL_CREDIT_TYPES = ['welcome', 'admin_credit', 'referral_reward', 'task_reward', 'bond_reward', 'stake_reward'] as const

/**
 * Changes one balance by `delta` and writes the operation row for it, in the caller's transaction.
 * A debit beyond the balance is refused with 400 and changes nothing.
 *
 * Locked tokens (users.locked_nano, a part of balance_token): a credit adds its `locked` part to
 * them; a debit for bonds or links spends them first (the free tokens stay free) and returns how many
 * it spent, for the caller to carry on the link; a sale ('withdraw') may take only the unlocked part.
 */
export const moveBalance = (
  ctx: ServerContext,
  userId: bigint,
  column: BalanceColumn,
  delta: bigint,
  type: string,
  description: string,
  locked = 0n,
): Promise<bigint> =>
  inTx(ctx, async (ctx) => {
    if (delta === 0n) return 0n
    const row = await getRow(ctx.db, `SELECT ${column} AS v, locked_nano FROM users WHERE id = ?`, userId)
    if (!row) throw new NotFound('User')
    const after = big(row, 'v') + delta
    if (after < 0n) throw new InsufficientBalance()
    if (after > SQLITE_MAX_INTEGER) throw new BalanceLimitExceeded()
    const held = column === 'balance_token' ? big(row, 'locked_nano') : 0n
    if (delta < 0n && held > 0n && type === 'withdraw' && after < held) throw new WelcomeTokensLocked(formatNano(big(row, 'v') - held))
    const lockedChange = delta > 0n ? (column === 'balance_token' ? locked : 0n) : type === 'withdraw' ? 0n : -(held < -delta ? held : -delta)
    await run(ctx.db, `UPDATE users SET ${column} = ${column} + ?, locked_nano = locked_nano + ? WHERE id = ?`, delta, lockedChange, userId)
    await run(
      ctx.db,
      'INSERT INTO operations (user_id, type, balance, amount, created_at, description) VALUES (?, ?, ?, ?, ?, ?)',
      userId,
      type,
      column,
      delta,
      ctx.now(),
      description,
    )
    queueBalance(ctx, userId)
    return lockedChange < 0n ? -lockedChange : 0n
  })

/** What an operation row's amount is counted in (operations.unit): the app's coin, or TON. */
export type OperationUnit = 'token' | 'ton'

/**
 * Writes the operation row of a money event that moves none of the user's balances, in the caller's
 * transaction: `balance` is `wallet` for TON paid from or to the user's own wallet (a bond's price, a
 * sale's payout), `none` for tokens that change form without touching a balance (a bond staked, a
 * bond from someone's farming link; the amount is what it was worth). No balance's sum counts it.
 */
export const recordOperation = async (
  ctx: ServerContext,
  userId: bigint,
  type: string,
  balance: 'wallet' | 'none',
  unit: OperationUnit,
  amount: bigint,
  description: string,
): Promise<void> => {
  await run(
    ctx.db,
    'INSERT INTO operations (user_id, type, balance, amount, created_at, description, unit) VALUES (?, ?, ?, ?, ?, ?, ?)',
    userId,
    type,
    balance,
    amount,
    ctx.now(),
    description,
    unit,
  )
}

