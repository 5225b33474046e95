import type { Effect } from 'effect'
import { makeAutoObservable, runInAction } from 'mobx'
import { maxBondAmount, type WalletBalance } from '../../../core/index.ts'
import { runResult } from '../../state/run-effect.ts'

/**
 * The bond form's wallet balance: read when the form opens and whenever the connected wallet
 * changes, and what its Max fills (maxBondAmount: the largest amount the balance pays for at the
 * current price, keeping the fee reserve). Made by the form, so its code loads with it.
 */
export class WalletBalanceState {
  /** The last reading; null while none has come back for the wallet now connected. */
  balance: WalletBalance | null = null
  private seq = 0

  constructor(private readonly read: () => Effect.Effect<WalletBalance>) {
    makeAutoObservable<this, 'read' | 'seq'>(this, { read: false, seq: false })
  }

  /** Reads the balance again; an answer that arrives after a newer read is dropped. */
  async refresh(): Promise<void> {
    const seq = ++this.seq
    this.balance = null
    const r = await runResult(this.read())
    runInAction(() => {
      if (seq !== this.seq) return
      this.balance = r._tag === 'Success' ? r.success : { kind: 'unavailable' }
    })
  }

  /** The largest bond amount the balance pays for at `price` (coin per AXIOM); null with no reading or no price. */
  maxAmount(price: number | null): number | null {
    return this.balance?.kind === 'read' && price !== null ? maxBondAmount(this.balance.nano, price) : null
  }
}
