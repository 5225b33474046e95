import { makeAutoObservable, runInAction } from 'mobx'
import {
  type BiometricReasons,
  isTonAddress,
  type MoneyConfirmation,
  type PaymentSignal,
  type SaleRequest,
  Submission,
  type TransferResult,
  type UseCases,
  type Withdrawal,
  type WithdrawQuote,
} from '../../../core/index.ts'
import { refusalOf, runResult } from '../../state/run-effect.ts'
import type { SessionState } from '../../state/session-state.ts'

/** What the sell view model calls. */
export type SellUseCases = Pick<UseCases, 'quoteSale' | 'sellTokens' | 'transferReferralBalance'>

/** The device's check right before money leaves (core's `confirmMoneyMovement` over the platform). */
export type ConfirmMoneyMovement = (reasons: BiometricReasons) => Promise<MoneyConfirmation>

/** Where there is no device check (tests, a host without biometrics): money goes as it always did. */
const WITHOUT_CHECK: ConfirmMoneyMovement = () => Promise.resolve({ kind: 'go', by: 'none' })

/** No texts given: Telegram's prompts then show none (the screens always give them, in the user's language). */
const NO_REASONS: BiometricReasons = { access: '', confirm: '' }

/** A sale's payout as the chain's stream saw it (`chain:payment` of a sale): its message sent, then paid. */
export type PayoutSignal = Extract<PaymentSignal, { readonly kind: 'sale' }>
export type PayoutState = PayoutSignal['state']

/** Sales whose payout state is kept at most (the oldest are forgotten first). */
const PAYOUTS_KEPT = 200

/** Why the last sale or transfer was not sent: the device's biometric check failed or was cancelled. */
export interface CheckRefusal {
  readonly what: 'sale' | 'transfer'
  readonly why: 'failed' | 'cancelled'
}

/** Selling to an external address, and moving referral balance to the main balance. */
export class SellState {
  quote: WithdrawQuote | null = null
  /** The server's refusal of the amount in `quoteAmount`, shown in place. */
  quoteRefusal: string | null = null
  /** The amount `quote` (or `quoteRefusal`) was computed for. */
  quoteAmount: number | null = null
  private previewSeq = 0
  /** The sale and transfer forms: a tap again after no answer reuses the key (`Submission`). */
  private readonly saleForm = new Submission()
  private readonly transferForm = new Submission()
  /** A sale or a transfer is in flight: one money movement at a time, a second press does nothing. */
  isSaving = false
  lastSale: Withdrawal | null = null
  /** The device's check stopped the last sale or transfer (nothing was sent); cleared by the next try. */
  checkRefusal: CheckRefusal | null = null
  /**
   * By withdrawal id, what the chain showed of the sale's payout before (and as) the history says it:
   * `sent` once the treasury's message is seen, `paid` once it is confirmed (never back to `sent`).
   */
  payouts = new Map<string, PayoutState>()

  constructor(
    private readonly uc: SellUseCases,
    /** A sale or a transfer moves balances: they are reloaded. */
    private readonly balances: Pick<SessionState, 'refresh'>,
    /** Asked right before a sale or a transfer is sent; a `stop` sends nothing. */
    private readonly confirm: ConfirmMoneyMovement = WITHOUT_CHECK,
  ) {
    makeAutoObservable<this, 'uc' | 'balances' | 'confirm' | 'previewSeq' | 'saleForm' | 'transferForm'>(this, {
      saleForm: false,
      transferForm: false,
      previewSeq: false,
      uc: false,
      balances: false,
      confirm: false,
    })
  }

  /**
   * Quotes a sale of `amount` to `address`. A sale to an address that is not valid has no
   * quote, and none is asked for. An answer that arrives after a newer request is dropped.
   */
  async preview(amount: number, address: string): Promise<void> {
    const seq = ++this.previewSeq
    if (!isTonAddress(address)) {
      this.quote = null
      this.quoteRefusal = null
      this.quoteAmount = null
      return
    }
    const r = await runResult(this.uc.quoteSale(amount))
    runInAction(() => {
      if (seq !== this.previewSeq) return
      this.quote = r._tag === 'Success' ? r.success : null
      this.quoteRefusal = refusalOf(r)
      this.quoteAmount = amount
    })
  }

  /** The server's refusal to quote a sale of exactly this amount to a valid address, or null. */
  refusalFor(amount: number | null, address: string): string | null {
    return amount !== null && this.quoteAmount === amount && isTonAddress(address) ? this.quoteRefusal : null
  }

  /**
   * The quote for exactly this amount to a valid address, or null: the fee and net shown always
   * match the amount sold, and never show for a sale that cannot be made.
   */
  quoteFor(amount: number | null, address: string): WithdrawQuote | null {
    return amount !== null && this.quoteAmount === amount && isTonAddress(address) ? this.quote : null
  }

  /**
   * Sells, once the device's check (where it has one) passed; a second press while a sale is being
   * checked or is in flight does nothing. A check that did not pass sends nothing and says why.
   */
  async sell(request: SaleRequest, reasons: BiometricReasons = NO_REASONS): Promise<Withdrawal | null> {
    if (this.isSaving) return null
    if (!(await this.checked('sale', reasons))) return null
    const r = await runResult(this.saleForm.send(request, (idempotencyKey) => this.uc.sellTokens(request, { idempotencyKey })))
    runInAction(() => {
      this.isSaving = false
      if (r._tag === 'Success') this.lastSale = r.success
    })
    if (r._tag === 'Success') void this.balances.refresh()
    return r._tag === 'Success' ? r.success : null
  }

  /** Moves referral balance to the main balance, with the same check and the same one-at-a-time rule as `sell`. */
  async transfer(amount: number, reasons: BiometricReasons = NO_REASONS): Promise<TransferResult | null> {
    if (this.isSaving) return null
    if (!(await this.checked('transfer', reasons))) return null
    const r = await runResult(this.transferForm.send({ amount }, (idempotencyKey) => this.uc.transferReferralBalance(amount, { idempotencyKey })))
    runInAction(() => (this.isSaving = false))
    if (r._tag === 'Success') void this.balances.refresh()
    return r._tag === 'Success' ? r.success : null
  }

  /** Marks a money movement under way and asks the device's check; false (and saving ended) when it stopped. */
  private async checked(what: CheckRefusal['what'], reasons: BiometricReasons): Promise<boolean> {
    this.isSaving = true
    this.checkRefusal = null
    let verdict: MoneyConfirmation
    try {
      verdict = await this.confirm(reasons)
    } catch {
      verdict = { kind: 'stop', why: 'cancelled' }
    }
    if (verdict.kind === 'go') return true
    const refusal: CheckRefusal = { what, why: verdict.why }
    runInAction(() => {
      this.isSaving = false
      this.checkRefusal = refusal
    })
    return false
  }

  /** A `chain:payment` event of a sale: its payout sent, then paid. */
  applyPayoutSignal(signal: PayoutSignal): void {
    const id = String(signal.id)
    // Paid is final: a late or repeated `sent` does not take it back.
    if (signal.state === 'sent' && this.payouts.get(id) === 'paid') return
    this.payouts.delete(id)
    this.payouts.set(id, signal.state)
    while (this.payouts.size > PAYOUTS_KEPT) this.payouts.delete(this.payouts.keys().next().value!)
  }

  /** What the chain showed of the payout of sale `id` (a withdrawal's id), or null. */
  payoutOf(id: string | number): PayoutState | null {
    return this.payouts.get(String(id)) ?? null
  }

  /** The message of a refused check is read: the form goes back to as it was. */
  clearCheckRefusal(): void {
    this.checkRefusal = null
  }
}
