import { getRow, run, big } from '../db/sql.ts'
import { BalanceLimitExceeded, InsufficientBalance, NotFound } from './errors.ts'
import { inTx, type ServerContext } from '../context.ts'
import { SQLITE_MAX_INTEGER } from '../money.ts'
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
 */
export const moveBalance = (
  ctx: ServerContext,
  userId: bigint,
  column: BalanceColumn,
  delta: bigint,
  type: string,
  description: string,
): Promise<void> =>
  inTx(ctx, async (ctx) => {
    if (delta === 0n) return
    const row = await getRow(ctx.db, `SELECT ${column} AS v FROM users WHERE id = ?`, userId)
    if (!row) throw new NotFound('User')
    const after = big(row, 'v') + delta
    if (after < 0n) throw new InsufficientBalance()
    if (after > SQLITE_MAX_INTEGER) throw new BalanceLimitExceeded()
    await run(ctx.db, `UPDATE users SET ${column} = ${column} + ? WHERE id = ?`, delta, userId)
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
  })
