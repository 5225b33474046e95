import { Schema } from 'effect'
import { CANDLE_INTERVALS } from '../constants.ts'
import { Amount, Id, Paged, Percent, UnixSeconds } from './primitives.ts'

/** `GET /price/current-price` and the live `price_update` event (spec §3). */
export const Price = Schema.Struct({
  price: Amount,
  price_change_24h: Amount,
  price_change_30d: Amount,
})
export type Price = typeof Price.Type

export const CandleInterval = Schema.Literals(CANDLE_INTERVALS)
export type CandleInterval = typeof CandleInterval.Type

/** A candle; `time` is in seconds (spec §3). */
export const Candle = Schema.Struct({
  time: UnixSeconds,
  open: Amount,
  high: Amount,
  low: Amount,
  close: Amount,
})
export type Candle = typeof Candle.Type
export const CandleList = Schema.Array(Candle)

/** The live `current_candle` event. */
export const CurrentCandle = Schema.Struct({ ...Candle.fields, interval: Schema.optional(CandleInterval) })
export type CurrentCandle = typeof CurrentCandle.Type

/** The live `global:collective_bonus` event. */
export const CollectiveBonus = Schema.Struct({ collective_bonus: Amount })

/**
 * `GET /stats/financial`: platform-wide figures. The spec leaves the fields open; these are the
 * reference backend's (docs/api.md), each optional, so a producer that sends fewer still decodes.
 */
export const FinancialStats = Schema.Struct({
  total_users: Schema.optional(Schema.Finite),
  total_locked: Schema.optional(Amount),
  active_bonds: Schema.optional(Schema.Finite),
  active_stakes: Schema.optional(Schema.Finite),
  total_rewards_paid: Schema.optional(Amount),
  total_withdrawn: Schema.optional(Amount),
  total_ton_raised: Schema.optional(Amount),
  collective_bonus: Schema.optional(Percent),
  price: Schema.optional(Amount),
})
export type FinancialStats = typeof FinancialStats.Type

/** One line of `GET /operations/history`: the spec leaves its fields open. */
export const Operation = Schema.Struct({
  id: Id,
  type: Schema.String,
  amount: Amount,
  created_at: UnixSeconds,
  description: Schema.optional(Schema.String),
  /** The description as a key the app translates, and its parameters (the reference backend sends them; `description` stays English). */
  description_key: Schema.optional(Schema.NullOr(Schema.String)),
  description_params: Schema.optional(Schema.NullOr(Schema.Record(Schema.String, Schema.Union([Schema.String, Schema.Finite])))),
  /** The amount's unit as the app shows it (the coin's name, or TON), and the balance it moved (`none`: none, the amount is what the event was worth); the reference backend sends them. */
  unit: Schema.optional(Schema.String),
  balance: Schema.optional(Schema.String),
})
export type Operation = typeof Operation.Type
export const OperationHistory = Paged(Operation)

/** `GET /maintenance/`. */
export const MaintenanceStatus = Schema.Struct({ detail: Schema.String })

/** `POST /user/share-message`. */
export const SharedMessage = Schema.Struct({ inline_message_id: Schema.String })
