import { Schema } from 'effect'
import { Amount, Id, Paged, UnixSeconds } from './primitives.ts'

/** The body of `POST /withdraw/create` (spec §3). */
export const WithdrawInput = Schema.Struct({
  from_ref_balance: Schema.Boolean,
  token_amount: Amount,
  address: Schema.String,
})
export type WithdrawInput = typeof WithdrawInput.Type

export const WITHDRAW_STATUSES = ['pending', 'completed', 'failed'] as const

export const Withdrawal = Schema.Struct({
  ...WithdrawInput.fields,
  id: Id,
  status: Schema.Literals(WITHDRAW_STATUSES),
  fee: Schema.optional(Amount),
  net_amount: Schema.optional(Amount),
  created_at: UnixSeconds,
  /** A pending sale over a payout limit, waiting for the operator's check (absent from older servers). */
  under_review: Schema.optional(Schema.Boolean),
  /**
   * A pending sale to an address the user has not proven (AXIOM_NEW_ADDRESS_DELAY): not paid before
   * this time, cancellable until then from the bot's message (absent on every other sale, and from older servers).
   */
  release_at: Schema.optional(UnixSeconds),
})
export type Withdrawal = typeof Withdrawal.Type
export const WithdrawHistory = Paged(Withdrawal)

/** `GET /withdraw/calculate`: what a sale of `token_amount` pays out. */
export const WithdrawQuote = Schema.Struct({
  token_amount: Amount,
  fee: Amount,
  net_amount: Amount,
  amount_ton: Schema.optional(Amount),
})
export type WithdrawQuote = typeof WithdrawQuote.Type

/** `POST /withdraw/transfer-from-referral-balance`: the balances after the move. */
export const TransferResult = Schema.Struct({
  balance_token: Amount,
  referral_balance: Amount,
})
export type TransferResult = typeof TransferResult.Type
