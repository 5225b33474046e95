import { Effect } from 'effect'
import {
  type ApiError,
  WalletBoundElsewhere,
  type WalletConnectionDeclined,
  WalletNotVerified,
  type WalletProtocolError,
} from '../errors.ts'
import type { AxiomApi } from '../ports/axiom-api.port.ts'
import type { Wallet, WalletAccount } from '../ports/wallet.port.ts'

export interface ConnectWalletDeps {
  readonly wallet: Wallet
  /** Binds the wallet to the user by tonProof; without it the wallet only connects. */
  readonly api?: Pick<AxiomApi, 'tonProofPayload' | 'bindWallet'>
}

/** What a failed bind means to the user: a refusal is told in the wallet's terms; other failures the API client reported. */
const bindFailure = (e: ApiError): ApiError | WalletBoundElsewhere | WalletNotVerified => {
  if (e._tag !== 'RequestRejected') return e
  return e.status === 409 ? new WalletBoundElsewhere() : new WalletNotVerified({ msg: e.msg })
}

/**
 * Connects the wallet and binds it to the user (tonProof): a payload from the backend, the wallet
 * signs it while connecting, the backend checks the proof and stores the wallet. A wallet that
 * proved itself stays connected only once the backend bound it: when the bind fails (the wallet is
 * another account's, the proof is refused, or the backend could not be asked), the wallet is
 * disconnected and the failure says why, so that nothing is ever paid from it. With no payload to
 * sign (the payload call failed) or a wallet that signs no proof, it connects without binding.
 */
export const connectWallet = (
  deps: ConnectWalletDeps,
): Effect.Effect<WalletAccount, WalletConnectionDeclined | WalletProtocolError | WalletBoundElsewhere | WalletNotVerified | ApiError> =>
  Effect.gen(function* () {
    const api = deps.api
    const payload = api
      ? yield* api.tonProofPayload().pipe(
          Effect.map((r): string | undefined => r.payload),
          Effect.catch(() => Effect.succeed(undefined)),
        )
      : undefined
    const account = yield* deps.wallet.connect(payload ? { tonProofPayload: payload } : undefined)
    if (api && account.proof) {
      const bound = yield* Effect.result(
        api.bindWallet({
          address: account.address,
          network: account.chain,
          ...(account.publicKey ? { public_key: account.publicKey } : {}),
          proof: account.proof,
        }),
      )
      if (bound._tag === 'Failure') {
        yield* deps.wallet.disconnect().pipe(Effect.catch(() => Effect.void))
        return yield* Effect.fail(bindFailure(bound.failure))
      }
    }
    return account
  })
