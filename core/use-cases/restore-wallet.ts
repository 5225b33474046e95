import { Duration, Effect, Schedule } from 'effect'
import { WALLET_RESTORE_RETRY_MS, WALLET_RESTORE_TIMEOUT_MS } from '../domain/constants.ts'
import type { WalletRestoreFailed } from '../errors.ts'
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
