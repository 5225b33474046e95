import { audit } from './audit.ts'
import { queueNotice } from './outbox.ts'
import { inTx, type ServerContext } from './context.ts'
import { allRows, big, getRow, run, str, type Row } from '../db/sql.ts'
import { formatNano } from './money.ts'
import { moveBalance, recordOperation } from './ledger.ts'
import type { PayoutLimits } from '../config/config.ts'
import type { WithdrawalRow } from './rows.ts'
import { COIN } from '../../core/domain/constants.ts'

/**
 * The payout states of a `withdrawals` row (its `status` column), in order:
 * - `pending`: not paid; nothing has left the treasury for it. One whose `release_at` is still ahead
 *   (a sale to an address its user has not proven, server/domain/withdraw.ts) is cooling: it joins
 *   no queue, no limit judges it, and its user may cancel it from the bot's message (cancelWaitingSale).
 * - `sending`: persisted *before* the transfer is signed and sent, so a payment may have left the
 *   treasury. A row found in this state (a crash, or an error thrown after the send) is never paid
 *   blindly again: the treasury's transactions are searched for the sale's comment first.
 * - `completed`: the payment is on the chain.
 * - `held`: over a payout limit (holdOverLimits): not paid until the operator approves it (back to
 *   `pending`, its `approved_at` set, judged by no limit again) or rejects it (`failed`, its tokens
 *   given back).
 * The API shows `sending` and `held` as `pending` (server/http/wire-format.ts): for the user the sale is not paid yet.
 */
export type PayoutState = 'pending' | 'sending' | 'completed'

/** A sale whose TON is still to be paid out: `amountNano` to `address`. */
export interface SaleDue {
  readonly id: bigint
  readonly address: string
  readonly amountNano: bigint
  readonly state: Exclude<PayoutState, 'completed'>
}

/** What a payout processor needs of the backend (RunningServer.payouts); each move is one committed UPDATE. */
export interface SalePayouts {
  /** The sales in these states, oldest first. */
  due(states: ReadonlyArray<SaleDue['state']>): Promise<SaleDue[]>
  /** pending → sending, before the transfer; false when the row was no longer pending, or is still cooling. */
  claim(id: bigint): Promise<boolean>
  /** sending → completed: the payment is on the chain. */
  markSent(id: bigint): Promise<boolean>
  /** sending → pending: nothing left the treasury; paid on a later run. */
  release(id: bigint): Promise<boolean>
}

/** SQL: the sale is not cooling (its release time, if any, has come); the one parameter is now. */
export const RELEASED_SQL = '(release_at IS NULL OR release_at <= ?)'

export const salePayouts = (ctx: ServerContext): SalePayouts => {
  const move = async (id: bigint, from: PayoutState, to: PayoutState): Promise<boolean> =>
    (await run(ctx.db, `UPDATE withdrawals SET status = ? WHERE id = ? AND status = ?`, to, id, from)).changes === 1
  return {
    // A cooling sale is not due yet.
    due: async (states) =>
      (
        await allRows(
          ctx.db,
          `SELECT id, address, amount_ton, status FROM withdrawals WHERE status IN (${states.map(() => '?').join(', ')}) AND (status != 'pending' OR ${RELEASED_SQL}) ORDER BY id`,
          ...states,
          ctx.now(),
        )
      ).map((row) => ({ id: big(row, 'id'), address: str(row, 'address'), amountNano: big(row, 'amount_ton'), state: str(row, 'status') as SaleDue['state'] })),
    claim: async (id) => (await run(ctx.db, `UPDATE withdrawals SET status = 'sending' WHERE id = ? AND status = 'pending' AND ${RELEASED_SQL}`, id, ctx.now())).changes === 1,
    markSent: (id) => inTx(ctx, (tx) => completeSale(tx, id)),
    release: (id) => move(id, 'sending', 'pending'),
  }
}

/** A sale's payout is on the chain: its user's history shows the TON it paid, and the bot's chat tells them. */
const salePaid = async (ctx: ServerContext, id: bigint, row: Row): Promise<void> => {
  await recordOperation(ctx, big(row, 'user_id'), 'sale_paid', 'wallet', 'ton', big(row, 'amount_ton'), `Sale #${id} paid`)
  await queueNotice(ctx, big(row, 'user_id'), 'sale_paid', { amount_ton: formatNano(big(row, 'amount_ton')) })
}

/**
 * sending → completed, inside the caller's transaction, and the user told in the bot's chat: the one
 * way a sale becomes paid (the payouts' confirmation, the operator's settle). False when it was not sending.
 */
export const completeSale = async (ctx: ServerContext, id: bigint): Promise<boolean> => {
  const moved = (await run(ctx.db, `UPDATE withdrawals SET status = 'completed' WHERE id = ? AND status = 'sending'`, id)).changes === 1
  const row = moved ? await getRow(ctx.db, 'SELECT user_id, amount_ton FROM withdrawals WHERE id = ?', id) : undefined
  if (row) await salePaid(ctx, id, row)
  return moved
}

/**
 * A sale the chain shows paid though this database does not know it was sent (restored to a point
 * before the send): completed from whatever state it was left in short of an end (pending, held,
 * sending), so that no pass pays it again. False when it had ended (completed, failed) or is unknown.
 */
export const completeSaleFoundPaid = async (ctx: ServerContext, id: bigint): Promise<boolean> => {
  const moved = (await run(ctx.db, `UPDATE withdrawals SET status = 'completed' WHERE id = ? AND status IN ('pending', 'held', 'sending')`, id)).changes === 1
  const row = moved ? await getRow(ctx.db, 'SELECT user_id, amount_ton FROM withdrawals WHERE id = ?', id) : undefined
  if (row) await salePaid(ctx, id, row)
  return moved
}

/** The window of the per-user-day limit: the last 24 hours. */
export const USER_DAY_S = 86_400

const tonText = (nano: bigint) => `${formatNano(nano)} ${COIN}`

/** What a user's sales released to the treasury's queue in the last 24 h come to (held ones are not released). */
const releasedToday = async (ctx: ServerContext, userId: bigint): Promise<bigint> =>
  big(
    (await getRow(
      ctx.db,
      `SELECT COALESCE(SUM(o.amount_nano), 0) AS v FROM outgoing_payments o JOIN withdrawals w ON w.id = o.withdrawal_id
       WHERE o.kind = 'sale' AND w.user_id = ? AND o.created_at > ?`,
      userId,
      ctx.now() - USER_DAY_S,
    ))!,
    'v',
  )

/**
 * Before the due sales join the queue, in the same transaction: each `pending` sale (oldest first) over
 * the per-sale limit, or that would take its user's sales of the last 24 h over the per-user-day limit,
 * becomes `held` with the reason; nothing is sent for it. A sale the operator approved is not judged
 * again, and counts towards its user's day. A sale still cooling is judged once its wait is over,
 * against the day as it is then (its user may cancel it before). Answers the sales held.
 */
export const holdOverLimits = (ctx: ServerContext, limits: PayoutLimits): Promise<Array<{ id: bigint; reason: string }>> =>
  inTx(ctx, async (ctx) => {
    if (limits.maxSaleNano === null && limits.maxUserDayNano === null) return []
    const due = await allRows(ctx.db, `SELECT id, user_id, amount_ton, approved_at FROM withdrawals WHERE status = 'pending' AND ${RELEASED_SQL} ORDER BY id`, ctx.now())
    const used = new Map<bigint, bigint>()
    const held: Array<{ id: bigint; reason: string }> = []
    for (const w of due) {
      const id = big(w, 'id')
      const userId = big(w, 'user_id')
      const amount = big(w, 'amount_ton')
      if (!used.has(userId) && limits.maxUserDayNano !== null) used.set(userId, await releasedToday(ctx, userId))
      let reason: string | null = null
      const approved = w.approved_at !== null && w.approved_at !== undefined
      if (!approved && limits.maxSaleNano !== null && amount > limits.maxSaleNano) {
        reason = `${tonText(amount)} is over the per-sale limit of ${tonText(limits.maxSaleNano)}`
      } else if (!approved && limits.maxUserDayNano !== null && used.get(userId)! + amount > limits.maxUserDayNano) {
        reason = `the user's sales of the last 24 h would come to ${tonText(used.get(userId)! + amount)}, over the per-user-day limit of ${tonText(limits.maxUserDayNano)}`
      }
      if (reason === null) {
        if (used.has(userId)) used.set(userId, used.get(userId)! + amount)
        continue
      }
      if ((await run(ctx.db, `UPDATE withdrawals SET status = 'held', held_reason = ? WHERE id = ? AND status = 'pending'`, reason, id)).changes === 1) {
        held.push({ id, reason })
        await audit(ctx, 'sale.held', id, { userId, amountNano: amount, reason })
      }
    }
    return held
  })

/** A sale held for the operator. */
export interface HeldSale {
  readonly id: bigint
  readonly userId: bigint
  readonly telegramId: bigint
  readonly tokenAmount: bigint
  readonly amountNano: bigint
  readonly address: string
  readonly createdAt: number
  readonly reason: string | null
}

const heldOf = (r: Row): HeldSale => ({
  id: big(r, 'id'),
  userId: big(r, 'user_id'),
  telegramId: big(r, 'telegram_id'),
  tokenAmount: big(r, 'token_amount'),
  amountNano: big(r, 'amount_ton'),
  address: str(r, 'address'),
  createdAt: Number(big(r, 'created_at')),
  reason: r.held_reason === null || r.held_reason === undefined ? null : str(r, 'held_reason'),
})

/** The held sales, oldest first (`npm run admin -- payouts held`). */
export const heldSales = async (ctx: ServerContext): Promise<HeldSale[]> =>
  (
    await allRows(
      ctx.db,
      `SELECT w.id, w.user_id, u.telegram_id, w.token_amount, w.amount_ton, w.address, w.created_at, w.held_reason
       FROM withdrawals w JOIN users u ON u.id = w.user_id WHERE w.status = 'held' ORDER BY w.id`,
    )
  ).map(heldOf)

/** The operator approves a held sale: `pending` again, paid on a next pass whatever the per-sale and per-user-day limits. False when it was not held. */
export const approveHeldSale = (ctx: ServerContext, id: bigint): Promise<boolean> =>
  inTx(ctx, async (ctx) => {
    const approved = (await run(ctx.db, `UPDATE withdrawals SET status = 'pending', approved_at = ? WHERE id = ? AND status = 'held'`, ctx.now(), id)).changes === 1
    if (approved) await audit(ctx, 'sale.approved', id, {})
    return approved
  })

/**
 * A sale that will never be paid, in the caller's transaction: it becomes `failed` (nothing is ever
 * sent for it) and its whole token_amount goes back to the balance it was taken from, with an
 * operation row (`withdraw_refund`, `description`), the mirror of the sale's `withdraw`. `from` says
 * which sales may end so: `held` (the operator's reject), or `cooling` (a `pending` sale whose
 * release_at is still ahead: its user's cancel, recorded in cancelled_at). False, with nothing
 * changed, when the sale is not in that state.
 */
const returnSaleTokens = async (ctx: ServerContext, id: bigint, from: 'held' | 'cooling', description: string): Promise<boolean> => {
  const row = await getRow(ctx.db, `SELECT user_id, from_ref_balance, token_amount FROM withdrawals WHERE id = ?`, id)
  if (!row) return false
  const now = ctx.now()
  const moved =
    from === 'held'
      ? await run(ctx.db, `UPDATE withdrawals SET status = 'failed' WHERE id = ? AND status = 'held'`, id)
      : await run(ctx.db, `UPDATE withdrawals SET status = 'failed', cancelled_at = ? WHERE id = ? AND status = 'pending' AND release_at > ?`, now, id, now)
  if (moved.changes !== 1) return false
  const column = big(row, 'from_ref_balance') !== 0n ? 'referral_balance' : 'balance_token'
  await moveBalance(ctx, big(row, 'user_id'), column, big(row, 'token_amount'), 'withdraw_refund', description)
  await audit(ctx, from === 'held' ? 'sale.rejected' : 'sale.cancelled', id, { userId: big(row, 'user_id'), tokenAmount: big(row, 'token_amount'), to: column })
  return true
}

/**
 * The operator refuses a held sale, in one transaction: it becomes `failed` and its whole
 * token_amount goes back to the balance it was taken from (returnSaleTokens). False when it was not held.
 */
export const rejectHeldSale = (ctx: ServerContext, id: bigint): Promise<boolean> =>
  inTx(ctx, (ctx) => returnSaleTokens(ctx, id, 'held', `Sale #${id} refused: tokens returned`))

/** What a press of a sale's Cancel button came to: the sale as it is after it, or none of the user's. */
export type SaleCancel =
  | { readonly outcome: 'cancelled'; readonly sale: WithdrawalRow }
  | { readonly outcome: 'already_cancelled' | 'not_waiting'; readonly sale: WithdrawalRow }
  | { readonly outcome: 'not_found' }

/**
 * The user's Cancel on a sale still cooling (the button of the bot's message about it), in one
 * transaction: only their own sale (`not_found` for another's, whoever pressed), only while its
 * release_at is ahead and it has joined no queue (`already_cancelled` for a second press; `not_waiting`
 * once the wait is over, the sale queued or paid). A cancelled sale is `failed` and its tokens are back
 * where they came from, as an operator's reject gives them back (returnSaleTokens); a second press
 * returns nothing more.
 */
export const cancelWaitingSale = (ctx: ServerContext, userId: bigint, saleId: bigint): Promise<SaleCancel> =>
  inTx(ctx, async (ctx) => {
    const owned = await getRow(ctx.db, 'SELECT id FROM withdrawals WHERE id = ? AND user_id = ?', saleId, userId)
    if (!owned) return { outcome: 'not_found' as const }
    const cancelled = await returnSaleTokens(ctx, saleId, 'cooling', `Sale #${saleId} cancelled: tokens returned`)
    const sale = (await getRow<WithdrawalRow>(ctx.db, 'SELECT * FROM withdrawals WHERE id = ?', saleId))!
    const outcome = cancelled ? ('cancelled' as const) : sale.cancelled_at !== null && sale.cancelled_at !== undefined ? ('already_cancelled' as const) : ('not_waiting' as const)
    return { outcome, sale }
  })
