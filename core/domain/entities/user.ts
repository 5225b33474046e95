import { Schema } from 'effect'
import { Amount, Id, Paged, Percent } from './primitives.ts'

/** The referral standing of a user. The API's level is 0-based; the UI shows level + 1. */
export const RefInfo = Schema.Struct({
  level: Schema.Finite,
  turnover: Schema.optional(Amount),
})

/** User data (spec §3). */
export const UserData = Schema.Struct({
  ref: RefInfo,
  community_participation: Schema.Boolean,
  balance_token: Amount,
  task_balance: Amount,
  referral_balance: Amount,
  hold_bonus: Percent,
  investment_bonus: Percent,
  collective_bonus: Percent,
  ref_code: Schema.String,
  /** The part of balance_token usable for bonds but not for sale (welcome tokens); absent means none. */
  locked_balance: Schema.optional(Amount),
  /** The wallet bound to the user by tonProof (friendly form); null (or absent) until one is. */
  wallet_address: Schema.optional(Schema.NullOr(Schema.String)),
})
export type UserData = typeof UserData.Type

/** The live `user:balance` event (spec §3). */
export const BalanceUpdate = Schema.Struct({
  balance_token: Amount,
  task_balance: Amount,
  referral_balance: Amount,
  hold_bonus: Percent,
  investment_bonus: Percent,
  locked_balance: Schema.optional(Amount),
})
export type BalanceUpdate = typeof BalanceUpdate.Type

/** One invited user in the referral list. The spec does not show its fields; these are the reference backend's. */
export const Referral = Schema.Struct({
  id: Id,
  name: Schema.optional(Schema.String),
  level: Schema.optional(Schema.Finite),
  turnover: Schema.optional(Amount),
  created_at: Schema.optional(Schema.Finite),
})
export type Referral = typeof Referral.Type

/** `GET /user/referrals`: a page of them, newest first, and how many there are. */
export const ReferralList = Paged(Referral)
