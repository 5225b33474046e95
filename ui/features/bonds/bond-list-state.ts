import { compareShallow, computed, makeAutoObservable, runInAction, when } from 'mobx'
import {
  type BondPurchase,
  type CancelCost,
  cancelCost,
  type Id,
  type MintId,
  keepNewestPending,
  keepUnchanged,
  mergeLiveRecord,
  type Mint,
  type MintPlan,
  Submission,
  type PaymentSignal,
  type PaymentWord,
  type UseCases,
} from '../../../core/index.ts'
import { runResult } from '../../state/run-effect.ts'
import type { SecondTicker } from '../../state/second-ticker.ts'
import type { LiveRecords } from './live-merge.ts'

/** The bond plans and the user's bonds (mints): the pending rule, live events, buying and cancelling. */
export class BondListState {
  plans: MintPlan[] = []
  mints: Mint[] = []
  isSaving = false
  /** Ids of mints with a cancel or stake in flight: a second press does nothing. */
  busyIds = new Set<Id>()
  /**
   * Ids of unpaid bonds whose payment the chain has shown (`chain:payment` seen): "Payment seen" until
   * the bond is active ("New Bond created"), or until the chain takes the payment back (withdrawn).
   */
  paymentSeenIds = new Set<string>()
  /**
   * The purchase's wallet failed (other than by the user's decline) or the user came back from a
   * wallet that has not answered: the pay step waits for the watcher's word about the bond, up to
   * the end of the transaction's validity, before it says the payment was not sent.
   */
  payChecking = false
  /** The bond form: a tap again after no answer reuses the key (`Submission`). */
  private readonly bondForm = new Submission()

  constructor(
    private readonly uc: Pick<UseCases, 'loadMintRecords' | 'buyBond' | 'cancelBond' | 'offerBotMessages'>,
    private readonly ticker: SecondTicker,
    private readonly live: LiveRecords,
    /** A purchase's payment did not go out: the pending records are cleared (spec §4). */
    private readonly onPaymentFailed: () => void,
  ) {
    makeAutoObservable<this, 'uc' | 'ticker' | 'live' | 'onPaymentFailed' | 'bondForm' | 'heard'>(this, {
      // Read every second (a pending bond ages out after 3 minutes), but a new list only when an item
      // came or went: the rows of an unchanged list must not re-render on each tick.
      visibleMints: computed({ equals: compareShallow }),
      uc: false,
      ticker: false,
      live: false,
      onPaymentFailed: false,
      bondForm: false,
      paymentWord: false,
      heard: false,
    })
  }

  /** A fetched list, read since `mark` (`LiveMerge`). */
  receive(mark: number, mints: Mint[]): void {
    this.mints = keepUnchanged(this.mints, this.live.merge.over(mark, 'mint', mints))
  }

  async refreshMints(): Promise<void> {
    const mark = this.live.merge.begin()
    const mints = await runResult(this.uc.loadMintRecords())
    runInAction(() => {
      if (mints._tag === 'Success') this.receive(mark, mints.success)
      this.live.merge.end()
    })
  }

  /** Buys a bond. A second press while one is in flight does nothing (one purchase per intent). */
  async buy(amount: number, days: number): Promise<BondPurchase | null> {
    if (this.isSaving) return null
    this.isSaving = true
    let created = false
    const showPending = (mint: Mint) => {
      created = true
      runInAction(() => (this.mints = mergeLiveRecord(this.mints, mint)))
    }
    const isPaid = (mint: Mint) => {
      const now = this.mints.find((m) => m.id === mint.id)
      return now !== undefined && now.status !== 'pending'
    }
    // The payment is out: Telegram may now ask, once, to let the bot tell the user when it lands.
    const onSent = () => {
      runInAction(() => (this.payChecking = false))
      void this.uc.offerBotMessages().catch(() => undefined)
    }
    const onChecking = () => runInAction(() => (this.payChecking = true))
    const heard = (mint: Mint, signal: AbortSignal) => this.heard(mint, signal)
    const r = await runResult(
      this.bondForm.send({ amount, days }, (idempotencyKey) =>
        this.uc.buyBond({ amount, days, idempotencyKey, onPendingMint: showPending, isPaid, onSent, heard, onChecking }),
      ),
    )
    runInAction(() => {
      this.isSaving = false
      this.payChecking = false
      if (r._tag === 'Success') {
        const bond = r.success.mint
        // Paid as the bond list says (its live event missed while the app was at the wallet): told as its live event would be.
        if (bond.status === 'active' && !isPaid(bond)) this.applyLive(bond)
        else {
          this.mints = mergeLiveRecord(this.mints, bond)
          // Active by a refetch rather than its live event: announced now (once: a bond announced already is not again).
          const now = this.mints.find((m) => m.id === bond.id)
          if (now?.status === 'active') this.live.announcements.mint(now)
        }
      }
      // The payment did not go out: the pending bond it was for is not shown (spec §4).
      else if (created) this.onPaymentFailed()
    })
    return r._tag === 'Success' ? r.success : null
  }

  async cancel(id: MintId): Promise<boolean> {
    return this.withBusy(id, async () => {
      const r = await runResult(this.uc.cancelBond(id))
      runInAction(() => {
        if (r._tag === 'Success') this.mints = mergeLiveRecord(this.mints, r.success)
      })
      if (r._tag === 'Success') this.live.onFiguresMoved()
      return r._tag === 'Success'
    })
  }

  /** A `chain:payment` event of a bond: its payment seen on the chain, or taken back. */
  applyPaymentSignal(signal: PaymentSignal): void {
    if (signal.kind !== 'bond') return
    const id = String(signal.id)
    if (signal.state === 'seen') this.paymentSeenIds.add(id)
    else if (signal.state === 'withdrawn') this.paymentSeenIds.delete(id)
  }

  /** The watcher's word about a bond, as the live events told it: active (its user:mint), or its payment seen (chain:payment). */
  paymentWord(mint: Mint): PaymentWord | null {
    if (this.mints.some((m) => m.id === mint.id && m.status === 'active')) return 'active'
    if (this.paymentSeenIds.has(String(mint.id))) return 'seen'
    return null
  }

  /** Resolves with the watcher's word about `mint` once it has come (at once if it has); `signal` stops listening. */
  private heard(mint: Mint, signal: AbortSignal): Promise<PaymentWord> {
    return new Promise((resolve) => {
      const dispose = when(
        () => this.paymentWord(mint) !== null,
        () => resolve(this.paymentWord(mint)!),
      )
      signal.addEventListener('abort', () => dispose(), { once: true })
    })
  }

  /** A pending bond whose payment the chain has shown, not credited yet. */
  isPaymentSeen(mint: Mint): boolean {
    return mint.status === 'pending' && this.paymentSeenIds.has(String(mint.id))
  }

  /** A live `user:mint` event (spec §4). */
  applyLive(mint: Mint): void {
    this.live.merge.record('mint', mint)
    this.mints = mergeLiveRecord(this.mints, mint)
    if (mint.status !== 'pending') this.paymentSeenIds.delete(String(mint.id))
    if (mint.status === 'active') this.live.onFiguresMoved()
    this.live.announcements.mint(mint)
  }

  /**
   * The activation has answered. Only a success sets the farming flag (spec §4). The bond it brought
   * may have come live while the call was out (held until now, and announced "via Farming"), or gone
   * out before this app's socket was signed in: then the mints are fetched, and a new active bond is
   * announced, once. Without a success, the bonds held meanwhile are announced as they are.
   */
  async settleFarmingBond(activated: boolean): Promise<void> {
    if (!this.live.announcements.release(activated)) return
    const known = new Set(this.mints.map((m) => m.id))
    const mark = this.live.merge.begin()
    const r = await runResult(this.uc.loadMintRecords())
    runInAction(() => {
      if (r._tag === 'Success') {
        this.receive(mark, r.success)
        for (const m of r.success) if (!known.has(m.id) && m.status === 'active') this.applyLive(m)
      }
      this.live.merge.end()
      this.live.announcements.spendFlag()
    })
  }

  /** After a failed signing, pending mints are cleared (spec §4). */
  clearPending(): void {
    this.mints = this.mints.filter((m) => m.status !== 'pending')
  }

  get activePlans(): MintPlan[] {
    return this.plans
  }

  /** Mints shown in the dashboard list: everything but those moved to staking. */
  get visibleMints(): Mint[] {
    return keepNewestPending(this.mints, this.ticker.now).filter((m) => m.status !== 'move_to_staking')
  }

  get stakeableMints(): Mint[] {
    return this.mints.filter((m) => m.status === 'active')
  }

  /** What cancelling `mint` now would return and cost (the backend's rule). */
  cancelCostOf(mint: Mint): CancelCost {
    return cancelCost(mint, this.ticker.now)
  }

  isBusy(id: Id): boolean {
    return this.busyIds.has(id)
  }

  /** Runs `work` with the mint marked busy; false at once if it already is. */
  async withBusy(id: Id, work: () => Promise<boolean>): Promise<boolean> {
    if (this.busyIds.has(id)) return false
    this.busyIds.add(id)
    try {
      return await work()
    } finally {
      runInAction(() => this.busyIds.delete(id))
    }
  }
}
