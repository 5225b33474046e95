import { makeAutoObservable, runInAction } from 'mobx'
import { isTonAddress, type SaleRequest, Submission, type TransferResult, type UseCases, type Withdrawal, type WithdrawQuote } from '../../../core/index.ts'
import { refusalOf, runResult } from '../../state/run-effect.ts'
import type { SessionState } from '../../state/session-state.ts'

/** What the sell view model calls. */
export type SellUseCases = Pick<UseCases, 'quoteSale' | 'sellTokens' | 'transferReferralBalance'>

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

  constructor(
    private readonly uc: SellUseCases,
    /** A sale or a transfer moves balances: they are reloaded. */
    private readonly balances: Pick<SessionState, 'refresh'>,
  ) {
    makeAutoObservable<this, 'uc' | 'balances' | 'previewSeq' | 'saleForm' | 'transferForm'>(this, {
      saleForm: false,
      transferForm: false,
      previewSeq: false,
      uc: false,
      balances: false,
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

  /** Sells; a second press while a sale is in flight does nothing. */
  async sell(request: SaleRequest): Promise<Withdrawal | null> {
    if (this.isSaving) return null
    this.isSaving = true
    const r = await runResult(this.saleForm.send(request, (idempotencyKey) => this.uc.sellTokens(request, { idempotencyKey })))
    runInAction(() => {
      this.isSaving = false
      if (r._tag === 'Success') this.lastSale = r.success
    })
    if (r._tag === 'Success') void this.balances.refresh()
    return r._tag === 'Success' ? r.success : null
  }

  async transfer(amount: number): Promise<TransferResult | null> {
    if (this.isSaving) return null
    this.isSaving = true
    const r = await runResult(this.transferForm.send({ amount }, (idempotencyKey) => this.uc.transferReferralBalance(amount, { idempotencyKey })))
    runInAction(() => (this.isSaving = false))
    if (r._tag === 'Success') void this.balances.refresh()
    return r._tag === 'Success' ? r.success : null
  }
}
