import { Schema } from 'effect'

/** A connected TON wallet (spec §3): its account and its balance in nano-units (1e9 per TON). */
export const WalletInfo = Schema.Struct({
  address: Schema.String,
  chain: Schema.String,
  balance_nano: Schema.BigIntFromString,
})
export type WalletInfo = typeof WalletInfo.Type

/**
 * TON Connect's proof of wallet ownership (the `ton_proof` connect item), as the backend checks it:
 * the wallet signed `payload` for `domain` at `timestamp`; `state_init` is the wallet's StateInit
 * (base64 BOC, the connect reply's `walletStateInit`), from which the backend reads the public key.
 */
export const TonProof = Schema.Struct({
  timestamp: Schema.Finite,
  domain: Schema.Struct({ lengthBytes: Schema.Finite, value: Schema.String }),
  payload: Schema.String,
  /** base64 Ed25519 signature. */
  signature: Schema.String,
  state_init: Schema.String,
})
export type TonProof = typeof TonProof.Type

/** The body of `POST /wallet/ton-proof/check`: the wallet's account and its proof. */
export const TonProofCheckInput = Schema.Struct({
  /** Raw form '0:…'. */
  address: Schema.String,
  /** The chain id: '-239' mainnet, '-3' testnet. */
  network: Schema.String,
  /** hex, when the wallet reported it. */
  public_key: Schema.optional(Schema.String),
  proof: TonProof,
})
export type TonProofCheckInput = typeof TonProofCheckInput.Type

/** `POST /wallet/ton-proof/payload`: a payload for the wallet to sign, single-use and expiring. */
export const TonProofPayload = Schema.Struct({ payload: Schema.String })
export type TonProofPayload = typeof TonProofPayload.Type

/** `POST /wallet/ton-proof/check`: the wallet now bound to the user, in friendly form. */
export const WalletBinding = Schema.Struct({ wallet_address: Schema.String })
export type WalletBinding = typeof WalletBinding.Type
