import { Clock as EffectClock, Duration, Effect, Schedule } from 'effect'
import { WALLET_RESTORE_RETRY_MS, WALLET_RESTORE_TIMEOUT_MS } from '../domain/constants.ts'
import { WalletRestoreAborted, type WalletRestoreFailed } from '../errors.ts'
import type { Clock } from '../ports/clock.port.ts'
import type { Wallet, WalletAccount } from '../ports/wallet.port.ts'

/** How often the page's running time is sampled while restoring. */
const TICK_MS = 250
/** Lateness of a tick up to this is timer jitter; beyond it, the page stalled. */
const STALL_SLACK_MS = 100

/**
 * Waits until the page has run for `ms`: a stretch in which it stalled (frozen in the background,
 * or too busy to run a timer) does not count. The stall is what the clock port saw pass beyond a
 * tick that came late.
 */
export const pageRunningFor = (clock: Clock, ms: number): Effect.Effect<void> =>
  Effect.gen(function* () {
    const start = yield* EffectClock.currentTimeMillis
    let stalled = 0
    for (;;) {
      const ran = (yield* EffectClock.currentTimeMillis) - start - stalled
      if (ran >= ms) return
      const step = Math.min(TICK_MS, ms - ran)
      const before = clock.nowMs()
      yield* Effect.sleep(Duration.millis(step))
      stalled += Math.max(0, clock.nowMs() - before - step - STALL_SLACK_MS)
    }
  })

export interface RestoreWalletDeps {
  readonly wallet: Wallet
  /** Measures how long the page stalled, which restoring's 12 s do not count. */
  readonly clock: Clock
}

/** A widget that fails to load is tried again every 2 s, six times in all (the 12 s / 2 s rule). */
const LOAD_RETRIES = WALLET_RESTORE_TIMEOUT_MS / WALLET_RESTORE_RETRY_MS - 1

/**
 * Restores a stored wallet connection (spec §4, §9: retries every 2 s, abandoned after 12 s).
 * - The widget loads first (after the first paint): a slow download is waited for, a failed one
 *   tried again every 2 s, six times.
 * - Then restoring proper, tried every 2 s. Its 12 s count only while the page runs.
 * - Null: nothing was stored.
 * - A definite failure (the wallet or bridge refused the stored connection) removes it:
 *   WalletRestoreFailed, 'Provider is not restored'.
 * - No answer within the 12 s, or a widget that never loaded: WalletRestoreAborted, 'Connection
 *   restoring was aborted'. The stored connection is kept for the next start, as TON Connect's own
 *   restore keeps it. A slow phone or a stalled page never costs a good connection.
 */
export const restoreWallet = (deps: RestoreWalletDeps): Effect.Effect<WalletAccount | null, WalletRestoreFailed | WalletRestoreAborted> => {
  const every2s = Schedule.spaced(Duration.millis(WALLET_RESTORE_RETRY_MS))
  const loaded = deps.wallet.ready().pipe(
    Effect.retry({ schedule: every2s, times: LOAD_RETRIES }),
    Effect.mapError((e) => new WalletRestoreAborted({ reason: e.reason ?? 'the wallet widget did not load' })),
  )
  const restored = deps.wallet.restore().pipe(Effect.retry({ schedule: every2s, while: (e) => e.definite !== true }))
  const abandoned = pageRunningFor(deps.clock, WALLET_RESTORE_TIMEOUT_MS).pipe(
    Effect.andThen(Effect.fail(new WalletRestoreAborted({ reason: `no answer within ${WALLET_RESTORE_TIMEOUT_MS / 1000} s` }))),
  )
  return loaded.pipe(
    Effect.andThen(Effect.raceFirst(restored, abandoned)),
    Effect.tapError((e) =>
      Effect.sync(() => (e._tag === 'WalletRestoreAborted' ? deps.wallet.abandonRestore() : deps.wallet.forgetStoredConnection())),
    ),
  )
}
