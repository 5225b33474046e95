import { Duration, Effect, type Result } from 'effect'
import type { Mint } from '../domain/entities/mint.ts'
import {
  TransactionNotSent,
  type TransactionSendingAborted,
  type WalletNotConnected,
  type WalletProtocolError,
} from '../errors.ts'
import type { AxiomApi } from '../ports/axiom-api.port.ts'
import type { Clock } from '../ports/clock.port.ts'
import type { Platform } from '../ports/platform.port.ts'
import type { Wallet, WalletTransaction } from '../ports/wallet.port.ts'

/**
 * The watcher's word about a bond's payment, from the live events the app already receives: its
 * `user:mint` active (the bond is paid), or `chain:payment` seen (the payment is on the chain, its
 * credit to follow).
 */
export type PaymentWord = 'active' | 'seen'

/** TON Connect's code for the user's refusal in the wallet (spec §8: user rejects 300). */
export const WALLET_USER_REJECTS = 300

export type PayError = WalletNotConnected | TransactionNotSent | TransactionSendingAborted | WalletProtocolError

/**
 * A failure that is told at once: the user declined in the wallet (300), or no wallet was connected
 * to ask (nothing was sent). Any other failure (the widget's own 'Transaction was not sent', an unknown
 * error, no answer) can come after the wallet sent the payment (ton-connect/sdk#340), so it waits for
 * the watcher's word.
 */
export const isDefiniteFailure = (e: PayError): boolean =>
  e._tag === 'WalletNotConnected' ||
  (e._tag === 'TransactionNotSent' && e.declined === true) ||
  (e._tag === 'WalletProtocolError' && e.code === WALLET_USER_REJECTS)

/**
 * How a pay step ended well: the wallet answered that it sent the payment, or the chain's side said
 * so while the wallet failed or was silent. `mint` is the bond as the backend's list gave it, when the
 * word came from there (the app may have missed its live event while it was out of view).
 */
export type PayOutcome =
  | { readonly by: 'wallet' }
  | { readonly by: 'chain'; readonly word: PaymentWord; readonly mint?: Mint }

export interface PayBondDeps {
  readonly wallet: Pick<Wallet, 'sendTransaction'>
  /** The bond list, read again when the step must know the bond's state (the deadline, the app back in view). */
  readonly api: Pick<AxiomApi, 'mints'>
  readonly clock: Clock
  /** The app going out of view (to the wallet) and back; without it the app is taken to stay in view. */
  readonly platform?: Pick<Platform, 'onVisibilityChange'>
}

export interface PaymentWatch {
  /**
   * Resolves with the watcher's word about `mint` once it has come (or at once, when it came first).
   * The signal is aborted when the step no longer needs it.
   */
  readonly heard?: (mint: Mint, signal: AbortSignal) => PromiseLike<PaymentWord>
  /**
   * Told when the step stops waiting for the wallet and waits for the chain's side instead: the wallet
   * failed other than by a decline, or the user came back from a wallet that has not answered.
   */
  readonly onChecking?: (mint: Mint) => void
}

type Signal =
  | { readonly _tag: 'wallet'; readonly result: Result.Result<{ readonly boc: string }, PayError> }
  | { readonly _tag: 'word'; readonly word: PaymentWord }
  | { readonly _tag: 'deadline' }
  | { readonly _tag: 'visibility'; readonly visible: boolean }

/**
 * The step's signals, offered from the wallet's answer, the watcher's word, the deadline and the
 * platform's visibility, and taken one at a time by the step. Hand-written rather than effect's Queue,
 * which would bring 2 KiB gzip to the app's first paint for this one use.
 */
const signalChannel = () => {
  const pending: Signal[] = []
  let waiting: ((s: Signal) => void) | null = null
  const offer = (s: Signal): void => {
    const w = waiting
    if (w) {
      waiting = null
      w(s)
    } else pending.push(s)
  }
  const take = Effect.promise(
    () =>
      new Promise<Signal>((resolve) => {
        const next = pending.shift()
        if (next) resolve(next)
        else waiting = resolve
      }),
  )
  return { offer, take }
}

/** The bond's state in the backend's list: paid, or not known to be (absent, unpaid, or the list unread). */
const paidInList = (deps: PayBondDeps, mint: Mint): Effect.Effect<Mint | null> =>
  deps.api.mints().pipe(
    Effect.map((page) => page.items.find((m) => String(m.id) === String(mint.id) && m.status === 'active') ?? null),
    Effect.catch(() => Effect.succeed(null)),
  )

/**
 * The pay step of a bond purchase: asks the wallet to send `tx` and decides what its answer means.
 *
 * - The wallet sent it: done. The user declined (or no wallet was connected): that failure at once.
 * - The wallet failed otherwise (ton-connect/sdk#340: approved in the wallet, back to "Transaction was
 *   not sent" with the payment on the chain): the step waits, `onChecking`, for the watcher's word
 *   about the bond (`heard`: its user:mint active, or chain:payment seen) until the transaction's
 *   validity window (`validUntil`) has passed. A word is a success; nothing by then is
 *   TransactionNotSent (the wallet's failure as its reason): the app checked, and nothing reached the chain.
 * - The wallet never answers (ton-connect/sdk#449): the step does not outlive the window either. At its
 *   end the bond list is read once; paid is a success, else TransactionNotSent.
 * - The app out of view (the user is in the wallet): the step decides nothing while away, as its live
 *   events may not reach it meanwhile. Back in view it reads the bond list: paid is a success; past the
 *   window it ends; else it keeps waiting.
 *
 * A word that comes while the wallet has not answered yet ends the step as well: the bond is paid.
 */
export const payBond =
  (deps: PayBondDeps) =>
  (mint: Mint, tx: WalletTransaction, watch: PaymentWatch = {}): Effect.Effect<PayOutcome, PayError> =>
    Effect.scoped(
      Effect.gen(function* () {
        const deadlineMs = tx.validUntil * 1000
        const signals = signalChannel()
        const tell = (s: Signal) => Effect.sync(() => signals.offer(s))
        // Each started at once: a wallet that answers at once is answered within this step's own run.
        const now = { startImmediately: true } as const
        yield* Effect.forkScoped(deps.wallet.sendTransaction(tx).pipe(Effect.result, Effect.flatMap((result) => tell({ _tag: 'wallet', result }))), now)
        const heard = watch.heard
        if (heard) yield* Effect.forkScoped(Effect.promise((signal) => heard(mint, signal)).pipe(Effect.flatMap((word) => tell({ _tag: 'word', word }))), now)
        yield* Effect.forkScoped(
          Effect.sleep(Duration.millis(Math.max(0, deadlineMs - deps.clock.nowMs()))).pipe(Effect.andThen(tell({ _tag: 'deadline' }))),
          now,
        )
        const platform = deps.platform
        if (platform) {
          const off = yield* Effect.sync(() => platform.onVisibilityChange((visible) => signals.offer({ _tag: 'visibility', visible })))
          yield* Effect.addFinalizer(() => Effect.sync(off))
        }

        let failed: PayError | null = null
        let walletAnswered = false
        let checking = false
        let deadlinePassed = false
        let inView = true
        const startChecking = () => {
          if (checking) return
          checking = true
          watch.onChecking?.(mint)
        }
        /** What the wallet said (or that it said nothing), kept as the reason of the failure the user reads. */
        const walletSaid = (e: PayError | null): string =>
          e === null
            ? 'no answer from the wallet'
            : e._tag === 'WalletProtocolError'
              ? `wallet error ${e.code}${e.message ? `: ${e.message}` : ''}`
              : `${e._tag}${'reason' in e && e.reason ? `: ${e.reason}` : ''}`
        const notSent = () => new TransactionNotSent({ reason: `${walletSaid(failed)}; the payment was not seen within the transaction's validity` })
        /** The bond list, read now: a paid bond ends the step well; otherwise, past the window, it ends as not sent. */
        const decide = Effect.fnUntraced(function* () {
          const paid = yield* paidInList(deps, mint)
          if (paid) return { by: 'chain', word: 'active', mint: paid } as PayOutcome
          if (deadlinePassed || deps.clock.nowMs() >= deadlineMs) return yield* Effect.fail(notSent())
          return null
        })

        for (;;) {
          const signal = yield* signals.take
          switch (signal._tag) {
            case 'wallet': {
              walletAnswered = true
              if (signal.result._tag === 'Success') return { by: 'wallet' } as PayOutcome
              const error = signal.result.failure
              if (isDefiniteFailure(error)) return yield* Effect.fail(error)
              failed = error
              startChecking()
              if (deadlinePassed && inView) {
                const outcome = yield* decide()
                if (outcome) return outcome
              }
              break
            }
            case 'word':
              return { by: 'chain', word: signal.word } as PayOutcome
            case 'deadline': {
              deadlinePassed = true
              if (!inView) break
              const outcome = yield* decide()
              if (outcome) return outcome
              break
            }
            case 'visibility': {
              inView = signal.visible
              if (!inView) break
              if (!walletAnswered) startChecking()
              const outcome = yield* decide()
              if (outcome) return outcome
              break
            }
          }
        }
      }),
    )
