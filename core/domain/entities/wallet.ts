import { Schema } from 'effect'

/** A connected TON wallet (spec §3): its account and its balance in nano-units (1e9 per TON). */
export const WalletInfo = Schema.Struct({
  address: Schema.String,
  chain: Schema.String,
  balance_nano: Schema.BigIntFromString,
})
export type WalletInfo = typeof WalletInfo.Type
