import { Schema } from 'effect'
import { BondQuote } from './mint.ts'
import { Amount, FarmingLinkId, Paged, UnixSeconds } from './primitives.ts'

/** The body of `POST /farming/create` (spec §3, §7). */
export const FarmingLinkInput = Schema.Struct({
  amount: Amount,
  days: Schema.Finite,
  count_activations: Schema.Finite,
  from_ref_balance: Schema.Boolean,
  from_task_balance: Schema.Boolean,
  is_multilink: Schema.Boolean,
  is_for_me: Schema.Boolean,
})
export type FarmingLinkInput = typeof FarmingLinkInput.Type

export const FARMING_LINK_STATUSES = ['active', 'reached', 'revoked'] as const

/** A farming (re-bonding) link as listed (spec §3). */
export const FarmingLink = Schema.Struct({
  ...FarmingLinkInput.fields,
  id: FarmingLinkId,
  activation_code: Schema.String,
  created_at: UnixSeconds,
  status: Schema.optional(Schema.Literals(FARMING_LINK_STATUSES)),
  used_activations: Schema.optional(Schema.Finite),
})
export type FarmingLink = typeof FarmingLink.Type
export const FarmingLinkList = Paged(FarmingLink)

/** A farming plan: the days offered, and what the chosen balance holds. */
export const FarmingPlan = Schema.Struct({
  days: Schema.Finite,
  is_active: Schema.Boolean,
  daily_reward: Schema.optional(Amount),
  available: Schema.optional(Amount),
})
export type FarmingPlan = typeof FarmingPlan.Type
export const FarmingPlanList = Schema.Array(FarmingPlan)

/** `GET /farming/calculate`: a bond quote, plus what the chosen balance holds. */
export const FarmingQuote = Schema.Struct({
  ...BondQuote.fields,
  available: Schema.optional(Amount),
})
export type FarmingQuote = typeof FarmingQuote.Type

/** Activation statuses (spec §4). */
export const FARMING_ACTIVATION_STATUSES = ['ACTIVE', 'REACHED', 'REVOKED'] as const
export const FarmingActivationStatus = Schema.Literals(FARMING_ACTIVATION_STATUSES)
export type FarmingActivationStatus = typeof FarmingActivationStatus.Type

/** `GET /farming/activation-status` (spec §3). */
export const FarmingActivation = Schema.Struct({
  status: FarmingActivationStatus,
  message: Schema.optional(Schema.NullOr(Schema.String)),
  /** The message as a key the app translates, and its parameters (the reference backend sends them; `message` stays English). */
  message_key: Schema.optional(Schema.NullOr(Schema.String)),
  message_params: Schema.optional(Schema.NullOr(Schema.Record(Schema.String, Schema.Union([Schema.String, Schema.Finite])))),
  mint_details: Schema.optional(
    Schema.NullOr(
      Schema.Struct({
        tariff_days: Schema.Finite,
        amount_token: Amount,
        amount_ton: Amount,
      }),
    ),
  ),
})
export type FarmingActivation = typeof FarmingActivation.Type
