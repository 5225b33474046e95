import { queueNotice } from './outbox.ts'
import { inTx, type ServerContext } from './context.ts'
import { allRows, big, getRow, run, str } from '../db/sql.ts'
import { formatNano } from './money.ts'

/**
 * The payout states of a `withdrawals` row (its `status` column), in order:
 * - `pending`: not paid; nothing has left the treasury for it.
 * - `sending`: persisted *before* the transfer is signed and sent, so a payment may have left the
 *   treasury. A row found in this state (a crash, or an error thrown after the send) is never paid
 *   blindly again: the treasury's transactions are searched for the sale's comment first.
 * - `completed`: the payment is on the chain.
 * The API shows `sending` as `pending` (server/domain/withdraw.ts): for the user the sale is not paid yet.
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
  /** pending → sending, before the transfer; false when the row was no longer pending. */
  claim(id: bigint): Promise<boolean>
  /** sending → completed: the payment is on the chain. */
  markSent(id: bigint): Promise<boolean>
  /** sending → pending: nothing left the treasury; paid on a later run. */
  release(id: bigint): Promise<boolean>
}

export const salePayouts = (ctx: ServerContext): SalePayouts => {
  const move = async (id: bigint, from: PayoutState, to: PayoutState): Promise<boolean> =>
    (await run(ctx.db, `UPDATE withdrawals SET status = ? WHERE id = ? AND status = ?`, to, id, from)).changes === 1
  return {
    due: async (states) =>
      (await allRows(ctx.db, `SELECT id, address, amount_ton, status FROM withdrawals WHERE status IN (${states.map(() => '?').join(', ')}) ORDER BY id`, ...states)).map(
        (row) => ({ id: big(row, 'id'), address: str(row, 'address'), amountNano: big(row, 'amount_ton'), state: str(row, 'status') as SaleDue['state'] }),
      ),
    claim: (id) => move(id, 'pending', 'sending'),
    markSent: (id) => inTx(ctx, (tx) => completeSale(tx, id)),
    release: (id) => move(id, 'sending', 'pending'),
  }
}

/**
 * sending → completed, inside the caller's transaction, and the user told in the bot's chat: the one
 * way a sale becomes paid (the payouts' confirmation, the operator's settle). False when it was not sending.
 */
export const completeSale = async (ctx: ServerContext, id: bigint): Promise<boolean> => {
  const moved = (await run(ctx.db, `UPDATE withdrawals SET status = 'completed' WHERE id = ? AND status = 'sending'`, id)).changes === 1
  const row = moved ? await getRow(ctx.db, 'SELECT user_id, amount_ton FROM withdrawals WHERE id = ?', id) : undefined
  if (row) await queueNotice(ctx, big(row, 'user_id'), 'sale_paid', { amount_ton: formatNano(big(row, 'amount_ton')) })
  return moved
}
