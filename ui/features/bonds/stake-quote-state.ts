import { makeAutoObservable, runInAction } from 'mobx'
import type { Id, MintId, StakeQuote, UseCases } from '../../../core/index.ts'
import { refusalOf, runResult } from '../../state/run-effect.ts'

/** The server's terms for staking a mint (GET /staking/calculate), and the mint they are for. */
export class StakeQuoteState {
  quote: StakeQuote | null = null
  mintId: string | null = null
  /** The server's refusal to quote staking `mintId`, shown in place. */
  refusal: string | null = null
  /** 'failed': the last quote asked for could not be had; the stake cannot be confirmed. */
  status: 'idle' | 'loading' | 'ready' | 'failed' = 'idle'
  private seq = 0

  constructor(
    private readonly uc: Pick<UseCases, 'quoteStake'>,
    /** A stake or cancel of this mint is in flight. */
    private readonly isBusy: (mintId: Id) => boolean,
  ) {
    makeAutoObservable<this, 'uc' | 'isBusy' | 'seq'>(this, { uc: false, isBusy: false, seq: false })
  }

  /**
   * Asks the server what staking `mintId` gives (spec §7: select mint → calculate → create). Only
   * the answer to the latest request is kept: picking another mint meanwhile drops the earlier one.
   */
  async preview(mintId: MintId): Promise<StakeQuote | null> {
    const seq = ++this.seq
    this.quote = null
    this.mintId = String(mintId)
    this.refusal = null
    this.status = 'loading'
    const r = await runResult(this.uc.quoteStake(mintId))
    runInAction(() => {
      if (seq !== this.seq) return
      const quote = r._tag === 'Success' ? r.success : null
      this.quote = quote
      this.refusal = refusalOf(r)
      this.status = quote ? 'ready' : 'failed'
    })
    return this.quoteFor(mintId)
  }

  /** The server's quote for staking exactly this mint, or null while it is asked for (or failed). */
  quoteFor(mintId: Id | null): StakeQuote | null {
    return mintId !== null && this.mintId === String(mintId) && this.status === 'ready' ? this.quote : null
  }

  /** A mint can be staked once its quote is shown and no stake of it is in flight. */
  canStake(mintId: Id | null): boolean {
    return mintId !== null && this.quoteFor(mintId) !== null && !this.isBusy(mintId)
  }
}
