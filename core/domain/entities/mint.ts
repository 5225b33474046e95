import { Schema } from 'effect'
import { Amount, MintId, Paged, Percent, StakeId, UnixSeconds } from './primitives.ts'

/** Mint (bond) statuses (spec §4). */
export const MINT_STATUSES = ['pending', 'active', 'canceled', 'completed', 'move_to_staking'] as const
export const MintStatus = Schema.Literals(MINT_STATUSES)
export type MintStatus = typeof MintStatus.Type

/** Stake statuses (spec §4). */
export const STAKE_STATUSES = ['pending', 'active', 'canceled', 'completed'] as const
export const StakeStatus = Schema.Literals(STAKE_STATUSES)
export type StakeStatus = typeof StakeStatus.Type

const recordFields = {
  created_at: UnixSeconds,
  last_updated_at: Schema.optional(Schema.NullOr(UnixSeconds)),
  total_amount: Amount,
  daily_reward: Percent,
  hold_bonus: Percent,
  collective_bonus: Percent,
  investment_bonus: Percent,
  earned_reward: Amount,
  max_reward: Amount,
  amount_token: Amount,
  amount_ton: Amount,
  tariff_days: Schema.Finite,
  expected_token: Schema.optional(Amount),
  /** The owner's own count: their first bond (or stake) is 1. `id` stays the server's key. */
  number: Schema.optional(Schema.Finite),
}

/** A mint, shown to users as a bond (spec §3). */
export const Mint = Schema.Struct({ id: MintId, ...recordFields, status: MintStatus })
export type Mint = typeof Mint.Type

/** A stake record (spec §3). */
export const Stake = Schema.Struct({ id: StakeId, ...recordFields, status: StakeStatus })
export type Stake = typeof Stake.Type

/** The number a user sees for a record: their own count, or the server's id from a backend without it. */
export const shownNumber = (r: { readonly id: MintId | StakeId; readonly number?: number | undefined }): string => (r.number === undefined ? r.id : String(r.number))

/** What the reward rule needs of a mint or a stake. */
export type RewardRecord = Pick<
  Mint,
  | 'created_at'
  | 'last_updated_at'
  | 'total_amount'
  | 'daily_reward'
  | 'hold_bonus'
  | 'collective_bonus'
  | 'investment_bonus'
  | 'earned_reward'
  | 'max_reward'
> & { readonly status: MintStatus | StakeStatus }

export const MintList = Paged(Mint)
export const StakeList = Paged(Stake)

/** The live `user:mint` event: the record with `mint_id` instead of `id`. */
export const LiveMintEvent = Schema.Struct({ ...recordFields, id: Schema.optional(MintId), mint_id: MintId, status: MintStatus })
export type LiveMintEvent = typeof LiveMintEvent.Type

/** The live `user:staking` event: the record with `staking_id` instead of `id`. */
export const LiveStakeEvent = Schema.Struct({ ...recordFields, id: Schema.optional(StakeId), staking_id: StakeId, status: StakeStatus })
export type LiveStakeEvent = typeof LiveStakeEvent.Type

/** A bond plan (spec §3). */
export const MintPlan = Schema.Struct({
  days: Schema.Finite,
  is_active: Schema.Boolean,
  daily_reward: Schema.optional(Percent),
})
export type MintPlan = typeof MintPlan.Type
export const MintPlanList = Schema.Array(MintPlan)

/**
 * The bonuses a quote adds to its daily_reward (the terms the record will carry). A producer that
 * leaves them out has none to add.
 */
const quoteBonuses = {
  hold_bonus: Schema.optional(Percent),
  collective_bonus: Schema.optional(Percent),
  investment_bonus: Schema.optional(Percent),
}

/** `GET /mint/calculate` and `GET /farming/calculate`. */
export const BondQuote = Schema.Struct({
  amount_token: Amount,
  amount_ton: Amount,
  tariff_days: Schema.Finite,
  daily_reward: Percent,
  ...quoteBonuses,
  max_reward: Amount,
  expected_reward: Amount,
})
export type BondQuote = typeof BondQuote.Type

/** `POST /mint/create`: the pending mint plus where and how to pay for it. */
export const MintPayment = Schema.Struct({
  mint: Mint,
  payment: Schema.Struct({
    address: Schema.String,
    amount_nano: Schema.String,
    comment: Schema.String,
    valid_until: UnixSeconds,
  }),
})
export type MintPayment = typeof MintPayment.Type

/** `GET /staking/calculate`: the terms of the stake that staking this mint creates. */
export const StakeQuote = Schema.Struct({
  /** The bond that staking would turn into a stake (the spec names the query field staking_id). */
  staking_id: MintId,
  total_amount: Amount,
  daily_reward: Percent,
  ...quoteBonuses,
  max_reward: Amount,
  tariff_days: Schema.Finite,
})
export type StakeQuote = typeof StakeQuote.Type
