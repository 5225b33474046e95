import { makeAutoObservable, runInAction } from 'mobx'
import type { BondQuote, UseCases } from '../../../core/index.ts'
import { refusalOf, runResult } from '../../state/run-effect.ts'

/** The bond form's quote: what the server says an amount and term give, or its refusal. */
export class BondQuoteState {
  quote: BondQuote | null = null
  /** The server's refusal of the amount and days in `quoteKey` ("amount must be at least 1"), shown in place. */
  quoteRefusal: string | null = null
  /** The amount and days `quote` (or `quoteRefusal`) was computed for. */
  quoteKey: string | null = null
  private seq = 0

  constructor(private readonly uc: Pick<UseCases, 'quoteBond'>) {
    makeAutoObservable<this, 'uc' | 'seq'>(this, { uc: false, seq: false })
  }

  /** Quotes a bond; an answer that arrives after a newer request is dropped. */
  async preview(amount: number, days: number): Promise<BondQuote | null> {
    const seq = ++this.seq
    const r = await runResult(this.uc.quoteBond(amount, days))
    runInAction(() => {
      if (seq !== this.seq) return
      this.quote = r._tag === 'Success' ? r.success : null
      this.quoteRefusal = refusalOf(r)
      this.quoteKey = `${amount}:${days}`
    })
    return this.quoteFor(amount, days)
  }

  /** The server's refusal to quote exactly this amount and term, or null. */
  refusalFor(amount: number | null, days: number | null): string | null {
    return amount !== null && days !== null && this.quoteKey === `${amount}:${days}` ? this.quoteRefusal : null
  }

  /** The quote for exactly this amount and term, or null while it is being computed. */
  quoteFor(amount: number | null, days: number | null): BondQuote | null {
    return amount !== null && days !== null && this.quoteKey === `${amount}:${days}` ? this.quote : null
  }
}
