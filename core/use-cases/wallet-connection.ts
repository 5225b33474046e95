import { Duration, Effect, Schedule } from 'effect'
import { WALLET_RESTORE_RETRY_MS, WALLET_RESTORE_TIMEOUT_MS } from '../domain/constants.ts'
import type { Wallet, WalletAccount } from '../ports/wallet.port.ts'

/**
 * Restores a stored wallet connection (spec §4): retried every 2 s and abandoned after 12 s,
 * when the stored connection is removed. Null when there was nothing to restore or it was given up.
 */
export const restoreWallet = (deps: { readonly wallet: Wallet }): Effect.Effect<WalletAccount | null> =>
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
  )

export const connectWallet = (deps: { readonly wallet: Wallet }) => deps.wallet.connect()

/** Disconnects; disconnecting while not connected is an error (spec §4). */
export const disconnectWallet = (deps: { readonly wallet: Wallet }) => deps.wallet.disconnect()
