import { Duration, Effect } from 'effect'
import {
  TRANSACTION_VALIDITY_SECONDS,
  WALLET_BALANCE_POLL_MS,
  WALLET_BALANCE_POLL_TRIES,
} from '../domain/constants.ts'
import { positiveAmount } from '../domain/amount-input.ts'
import type { Mint } from '../domain/entities/mint.ts'
import {
  type ApiError,
  type InvalidInput,
  type TransactionNotSent,
  type TransactionSendingAborted,
  WalletNotConnected,
  type WalletProtocolError,
  WalletUnsupported,
} from '../errors.ts'
import type { AxiomApi } from '../ports/axiom-api.port.ts'
import type { ChainReader } from '../ports/chain-reader.port.ts'
import { type Clock, nowSeconds } from '../ports/clock.port.ts'
import type { Notifier } from '../ports/notifier.port.ts'
import type { Platform } from '../ports/platform.port.ts'
import type { Wallet, WalletTransaction } from '../ports/wallet.port.ts'
import { payBond, type PaymentWord } from './pay-bond.ts'

export interface BuyBondDeps {
  readonly api: Pick<AxiomApi, 'createMint' | 'mints'>
  readonly wallet: Wallet
  readonly chain: ChainReader
  readonly clock: Clock
  readonly notifier: Notifier
  /** The app going to the wallet and back (the pay step's recovery, core/use-cases/pay-bond.ts). */
  readonly platform?: Pick<Platform, 'onVisibilityChange'>
  readonly pollEveryMs?: number
  /** How long the wallet's transaction is valid, in seconds. Default TRANSACTION_VALIDITY_SECONDS (spec §5: 60). */
  readonly validitySeconds?: number
}

export interface BuyBondInput {
  readonly amount: number
  readonly days: number
  readonly idempotencyKey?: string
  /** Told the pending mint as soon as it exists, so it can be shown while the wallet signs. */
  readonly onPendingMint?: (mint: Mint) => void
  /**
   * Asked once the wallet has answered: true when the bond's payment is already known to have landed
   * (its live event came first, and 'New Bond created' was said), so 'being processed' would come late.
   */
  readonly isPaid?: (mint: Mint) => boolean
  /** Told once the wallet has sent the payment (before the balance watch). */
  readonly onSent?: (mint: Mint) => void
  /**
   * The watcher's word about the bond (its user:mint active, or chain:payment seen), once it comes:
   * a wallet that failed other than by a decline, or never answered, is then taken to have paid.
   */
  readonly heard?: (mint: Mint, signal: AbortSignal) => PromiseLike<PaymentWord>
  /** Told when the purchase checks for the payment on the chain's side instead of waiting for the wallet. */
  readonly onChecking?: (mint: Mint) => void
}

export interface BondPurchase {
  readonly mint: Mint
  /** True when the wallet balance was seen to change within the poll (spec §4). */
  readonly balanceChanged: boolean
}

export type BuyBondError =
  | ApiError
  | InvalidInput
  | WalletNotConnected
  | WalletUnsupported
  | TransactionNotSent
  | TransactionSendingAborted
  | WalletProtocolError

/** The transaction that pays for a pending mint: one message, valid for 60 s (spec §5) unless configured. */
export const bondPaymentTransaction = (
  payment: { readonly address: string; readonly amount_nano: string; readonly comment: string },
  nowSec: number,
  validitySeconds: number = TRANSACTION_VALIDITY_SECONDS,
): WalletTransaction => ({
  validUntil: nowSec + validitySeconds,
  messages: [{ address: payment.address, amount: payment.amount_nano, comment: payment.comment }],
})

/**
 * Polls the wallet balance every second, up to 30 times, until it differs from `before`
 * (spec §4). Read errors count as "not changed yet"; with no reading before signing, the first
 * successful poll becomes the baseline.
 */
export const waitForBalanceChange = (deps: Pick<BuyBondDeps, 'chain' | 'pollEveryMs'>, address: string, before: bigint | null) =>
  Effect.gen(function* () {
    let baseline = before
    for (let i = 0; i < WALLET_BALANCE_POLL_TRIES; i++) {
      yield* Effect.sleep(Duration.millis(deps.pollEveryMs ?? WALLET_BALANCE_POLL_MS))
      const now = yield* Effect.result(deps.chain.balance(address))
      if (now._tag !== 'Success') continue
      if (baseline === null) baseline = now.success
      else if (now.success !== baseline) return true
    }
    return false
  })

/** How long the wallet prompt may wait for the balance before paying; a slower chain leaves no baseline. */
export const BALANCE_BEFORE_PAYING_MAX_MS = 2_000

const balanceBeforePaying = (deps: Pick<BuyBondDeps, 'chain'>, address: string): Effect.Effect<bigint | null> =>
  deps.chain.balance(address).pipe(
    Effect.map((b): bigint | null => b),
    Effect.timeoutOrElse({ duration: Duration.millis(BALANCE_BEFORE_PAYING_MAX_MS), orElse: () => Effect.succeed(null) }),
    Effect.catch(() => Effect.succeed(null)),
  )

/**
 * Buys a bond (spec §4, §5): checks the wallet is connected and can send the message, creates the
 * pending mint, reads the wallet balance, asks the wallet to pay the treasury with the mint's comment within 60 s, tells the
 * user the transaction is being processed and watches the wallet balance. The wallet's answer is
 * read by the pay step (`payBond`): a decline ends the purchase at once with TransactionNotSent (or
 * the wallet's 300); any other failure, or no answer, waits for the watcher's word about the bond
 * within the transaction's validity, and ends with TransactionNotSent only when none came. The caller
 * then clears pending items.
 */
export const buyBond =
  (deps: BuyBondDeps) =>
  (input: BuyBondInput): Effect.Effect<BondPurchase, BuyBondError> =>
    Effect.gen(function* () {
      yield* positiveAmount('amount', input.amount)
      const account = deps.wallet.account()
      if (!account) return yield* Effect.fail(new WalletNotConnected())
      const maxMessages = deps.wallet.maxMessages()
      if (maxMessages < 1) return yield* Effect.fail(new WalletUnsupported({ maxMessages, needed: 1 }))

      const { mint, payment } = yield* deps.api.createMint(
        { amount: input.amount, days: input.days },
        input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : undefined,
      )
      input.onPendingMint?.(mint)
      // The balance before paying is read before the wallet is asked: a wallet that approves at once
      // lands the payment before a reading taken meanwhile, which then never sees the balance change.
      const before = yield* balanceBeforePaying(deps, account.address)
      const tx = bondPaymentTransaction(payment, nowSeconds(deps.clock), deps.validitySeconds)
      const outcome = yield* payBond(deps)(mint, tx, {
        ...(input.heard ? { heard: input.heard } : {}),
        ...(input.onChecking ? { onChecking: input.onChecking } : {}),
      })
      // A fast chain can credit the payment before the wallet's answer is back: then the bond is live already.
      const live = outcome.by === 'chain' && outcome.word === 'active'
      if (!live && !input.isPaid?.(mint)) deps.notifier.notify({ tag: 'transactionProcessing' })
      input.onSent?.(mint)
      const balanceChanged = yield* waitForBalanceChange(deps, account.address, before)
      return { mint: outcome.by === 'chain' && outcome.mint ? outcome.mint : mint, balanceChanged }
    })
