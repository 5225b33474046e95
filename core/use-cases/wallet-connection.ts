import { Duration, Effect, Schedule } from 'effect'
import { WALLET_RESTORE_RETRY_MS, WALLET_RESTORE_TIMEOUT_MS } from '../domain/constants.ts'
import {
  type ApiError,
  WalletBoundElsewhere,
  type WalletConnectionDeclined,
  WalletNotVerified,
  type WalletProtocolError,
  type WalletRestoreFailed,
} from '../errors.ts'
import type { AxiomApi } from '../ports/axiom-api.port.ts'
import type { Wallet, WalletAccount } from '../ports/wallet.port.ts'

/**
 * Restores a stored wallet connection (spec §4): retried every 2 s and abandoned after 12 s,
 * when the stored connection is forgotten. The 12 s start once the wallet is ready (its widget
 * loads after the first paint), so a slow download never costs a good connection. Null when there
 * was nothing to restore or it was given up; WalletRestoreFailed when the wallet could not be
 * loaded, and then the stored connection is kept, since it was never tried.
 */
export const restoreWallet = (deps: { readonly wallet: Wallet }): Effect.Effect<WalletAccount | null, WalletRestoreFailed> =>
  Effect.flatMap(deps.wallet.ready(), () =>
    deps.wallet.restore().pipe(
      Effect.retry({ schedule: Schedule.spaced(Duration.millis(WALLET_RESTORE_RETRY_MS)) }),
      Effect.timeoutOrElse({
        duration: Duration.millis(WALLET_RESTORE_TIMEOUT_MS),
        orElse: () =>
          Effect.sync(() => {
            deps.wallet.forgetStoredConnection()
            return null
          }),
      }),
      Effect.catch(() => Effect.succeed(null)),
    ),
  )

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

/** Disconnects; disconnecting while not connected is an error (spec §4). */
export const disconnectWallet = (deps: { readonly wallet: Wallet }) => deps.wallet.disconnect()
