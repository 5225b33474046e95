import { compareShallow, computed, makeAutoObservable, runInAction } from 'mobx'
import {
  type BondPurchase,
  type BondQuote,
  accruedBetween,
  type CancelCost,
  cancelCost,
  earningPerSecond,
  type HapticKind,
  type Id,
  type MintId,
  keepNewestPending,
  liveRecordNotice,
  mergeLiveRecord,
  type Mint,
  type MintPlan,
  type Notifier,
  type Stake,
  type StakeQuote,
  SECONDS_PER_DAY,
  Submission,
  rewardAt,
  type UseCases,
} from '../../../core/index.ts'
import { refusalOf, runResult } from '../../state/run-effect.ts'
import type { SecondTicker } from '../../state/second-ticker.ts'

/** What the bonds view model calls. */
export type BondUseCases = Pick<
  UseCases,
  'loadBondPlans' | 'loadMintRecords' | 'loadStakeRecords' | 'quoteBond' | 'buyBond' | 'cancelBond' | 'quoteStake' | 'stakeMint'
>

/** Bonds (mints) and stakes: plans, the lists with the pending rule and live events, buying and staking. */
export class BondsState {
  plans: MintPlan[] = []
  mints: Mint[] = []
  stakes: Stake[] = []
  quote: BondQuote | null = null
  /** The server's refusal of the amount and days in `quoteKey` ("amount must be at least 1"), shown in place. */
  quoteRefusal: string | null = null
  /** The amount and days `quote` (or `quoteRefusal`) was computed for. */
  quoteKey: string | null = null
  private previewSeq = 0
  /** The server's terms for staking a mint (GET /staking/calculate), and the mint they are for. */
  stakeQuote: StakeQuote | null = null
  stakeQuoteMintId: string | null = null
  /** The server's refusal to quote staking `stakeQuoteMintId`, shown in place. */
  stakeQuoteRefusal: string | null = null
  /** 'failed': the last quote asked for could not be had; the stake cannot be confirmed. */
  stakeQuoteStatus: 'idle' | 'loading' | 'ready' | 'failed' = 'idle'
  private stakeQuoteSeq = 0
  isFetching = false
  /** The lists have been asked for once and answered (or failed): the day's accrual is known. */
  listed = false
  isSaving = false
  /** Ids of mints with a cancel or stake in flight: a second press does nothing. */
  busyIds = new Set<Id>()
  /**
   * The farming success flag (spec §4 toast wording): set when an activation succeeded, and spent by
   * the announcement of the bond it brought.
   */
  viaFarming = false
  /** While an activation call is out: new active bonds wait for its answer to be announced. */
  private farmingCallOut = false
  private heldMints: Mint[] = []
  /** Ids of live records already announced: each bond or stake gets its toast once. */
  private readonly announced = new Set<string>()
  /** List fetches in flight, and the live records that arrived while any was out. */
  private fetchesOut = 0
  private liveLog: Array<{ readonly kind: 'mint' | 'stake'; readonly record: Mint | Stake }> = []
  /** The bond form and the stake button: a tap again after no answer reuses the key (`Submission`). */
  private readonly bondForm = new Submission()
  private readonly stakeForm = new Submission()

  constructor(
    private readonly uc: BondUseCases,
    private readonly ticker: SecondTicker,
    private readonly notifier: Notifier,
    private readonly haptic: (kind: HapticKind) => void = () => {},
    /** The user's own bond went live, or a stake or cancel went through: the platform's figures moved. */
    private readonly onFiguresMoved: () => void = () => {},
  ) {
    makeAutoObservable<
      this,
      | 'uc'
      | 'ticker'
      | 'notifier'
      | 'haptic'
      | 'onFiguresMoved'
      | 'announced'
      | 'previewSeq'
      | 'stakeQuoteSeq'
      | 'farmingCallOut'
      | 'heldMints'
      | 'fetchesOut'
      | 'liveLog'
      | 'bondForm'
      | 'stakeForm'
    >(this, {
      // Read every second (a pending bond or stake ages out after 3 minutes), but a new list only when
      // an item came or went: the rows of an unchanged list must not re-render on each tick.
      visibleMints: computed({ equals: compareShallow }),
      visibleStakes: computed({ equals: compareShallow }),
      previewSeq: false,
      stakeQuoteSeq: false,
      announced: false,
      farmingCallOut: false,
      heldMints: false,
      fetchesOut: false,
      liveLog: false,
      bondForm: false,
      stakeForm: false,
      uc: false,
      ticker: false,
      notifier: false,
      haptic: false,
      onFiguresMoved: false,
    })
  }

  async refresh(): Promise<void> {
    this.isFetching = true
    const since = this.fetchBegins()
    const [plans, mints, stakes] = await Promise.all([
      runResult(this.uc.loadBondPlans()),
      runResult(this.uc.loadMintRecords()),
      runResult(this.uc.loadStakeRecords()),
    ])
    runInAction(() => {
      if (plans._tag === 'Success') this.plans = plans.success
      if (mints._tag === 'Success') this.mints = this.withLiveSince(since, 'mint', mints.success)
      if (stakes._tag === 'Success') this.stakes = this.withLiveSince(since, 'stake', stakes.success)
      this.fetchEnds()
      this.isFetching = false
      this.listed = true
    })
  }

  async refreshMints(): Promise<void> {
    const since = this.fetchBegins()
    const mints = await runResult(this.uc.loadMintRecords())
    runInAction(() => {
      if (mints._tag === 'Success') this.mints = this.withLiveSince(since, 'mint', mints.success)
      this.fetchEnds()
    })
  }

  /**
   * A list fetched while live records arrived was read before some of them: those records are
   * merged again over the answer, so that a refetch never takes back what the socket told.
   */
  private fetchBegins(): number {
    this.fetchesOut++
    return this.liveLog.length
  }

  private fetchEnds(): void {
    if (--this.fetchesOut === 0) this.liveLog = []
  }

  private withLiveSince<R extends Mint | Stake>(since: number, kind: 'mint' | 'stake', list: R[]): R[] {
    const live = this.liveLog.slice(since).filter((e) => e.kind === kind)
    if (!live.length) return list
    return live.reduce((merged, e) => mergeLiveRecord(merged, e.record as R), list)
  }

  private logLive(kind: 'mint' | 'stake', record: Mint | Stake): void {
    if (this.fetchesOut > 0) this.liveLog.push({ kind, record })
  }

  /** Quotes a bond; an answer that arrives after a newer request is dropped. */
  async preview(amount: number, days: number): Promise<BondQuote | null> {
    const seq = ++this.previewSeq
    const r = await runResult(this.uc.quoteBond(amount, days))
    runInAction(() => {
      if (seq !== this.previewSeq) return
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

  /**
   * Asks the server what staking `mintId` gives (spec §7: select mint → calculate → create). Only
   * the answer to the latest request is kept: picking another mint meanwhile drops the earlier one.
   */
  async previewStake(mintId: MintId): Promise<StakeQuote | null> {
    const seq = ++this.stakeQuoteSeq
    this.stakeQuote = null
    this.stakeQuoteMintId = String(mintId)
    this.stakeQuoteRefusal = null
    this.stakeQuoteStatus = 'loading'
    const r = await runResult(this.uc.quoteStake(mintId))
    runInAction(() => {
      if (seq !== this.stakeQuoteSeq) return
      const quote = r._tag === 'Success' ? r.success : null
      this.stakeQuote = quote
      this.stakeQuoteRefusal = refusalOf(r)
      this.stakeQuoteStatus = quote ? 'ready' : 'failed'
    })
    return this.stakeQuoteFor(mintId)
  }

  /** The server's quote for staking exactly this mint, or null while it is asked for (or failed). */
  stakeQuoteFor(mintId: Id | null): StakeQuote | null {
    return mintId !== null && this.stakeQuoteMintId === String(mintId) && this.stakeQuoteStatus === 'ready' ? this.stakeQuote : null
  }

  /** A mint can be staked once its quote is shown and no stake of it is in flight. */
  canStake(mintId: Id | null): boolean {
    return mintId !== null && this.stakeQuoteFor(mintId) !== null && !this.isBusy(mintId)
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
    const r = await runResult(
      this.bondForm.send({ amount, days }, (idempotencyKey) => this.uc.buyBond({ amount, days, idempotencyKey, onPendingMint: showPending })),
    )
    runInAction(() => {
      this.isSaving = false
      if (r._tag === 'Success') {
        this.mints = mergeLiveRecord(this.mints, r.success.mint)
      } else {
        // The payment did not go out: the pending bond it was for is not shown (spec §4).
        if (created) this.clearPending()
      }
    })
    return r._tag === 'Success' ? r.success : null
  }

  async cancel(id: MintId): Promise<boolean> {
    return this.withBusy(id, async () => {
      const r = await runResult(this.uc.cancelBond(id))
      runInAction(() => {
        if (r._tag === 'Success') this.mints = mergeLiveRecord(this.mints, r.success)
      })
      if (r._tag === 'Success') this.onFiguresMoved()
      return r._tag === 'Success'
    })
  }

  async stake(mintId: MintId): Promise<boolean> {
    return this.withBusy(mintId, async () => {
      const r = await runResult(this.stakeForm.send({ mintId: String(mintId) }, (idempotencyKey) => this.uc.stakeMint(mintId, { idempotencyKey })))
      if (r._tag === 'Success') {
        runInAction(() => (this.stakes = mergeLiveRecord(this.stakes, r.success)))
        this.onFiguresMoved()
        await this.refreshMints()
      }
      return r._tag === 'Success'
    })
  }

  /** A live `user:mint` event (spec §4). */
  applyLiveMint(mint: Mint): void {
    this.logLive('mint', mint)
    this.mints = mergeLiveRecord(this.mints, mint)
    if (mint.status === 'active') this.onFiguresMoved()
    // The server pushes the bond an activation brings while it answers: until the answer says
    // whether the activation succeeded, a new bond is not announced, so that it can say "via Farming".
    if (this.farmingCallOut && liveRecordNotice('mint', mint.status, false)) this.heldMints.push(mint)
    else this.announceMint(mint)
  }

  private announceMint(mint: Mint): void {
    const notice = liveRecordNotice('mint', mint.status, this.viaFarming)
    if (notice && this.firstAnnouncement('mint', mint.id)) {
      if (this.viaFarming) this.viaFarming = false
      this.notifier.notify(notice)
      this.haptic('success')
    }
  }

  /** A live `user:staking` event: merged, announced, and the mints refetched (spec §4). */
  applyLiveStake(stake: Stake): void {
    this.logLive('stake', stake)
    this.stakes = mergeLiveRecord(this.stakes, stake)
    if (stake.status === 'active') this.onFiguresMoved()
    const notice = liveRecordNotice('stake', stake.status, false)
    if (notice && this.firstAnnouncement('stake', stake.id)) {
      this.notifier.notify(notice)
      this.haptic('success')
    }
    void this.refreshMints()
  }

  /** After a failed signing, pending mints and stakes are cleared (spec §4). */
  clearPending(): void {
    this.mints = this.mints.filter((m) => m.status !== 'pending')
    this.stakes = this.stakes.filter((s) => s.status !== 'pending')
  }

  /** A farming activation call goes out: bonds that arrive meanwhile are announced once it answers. */
  expectFarmingBond(): void {
    this.farmingCallOut = true
  }

  /**
   * The activation has answered. Only a success sets the farming flag (spec §4). The bond it brought
   * may have come live while the call was out (held until now, and announced "via Farming"), or gone
   * out before this app's socket was signed in: then the mints are fetched, and a new active bond is
   * announced, once. Without a success, the bonds held meanwhile are announced as they are.
   */
  async settleFarmingBond(activated: boolean): Promise<void> {
    const held = this.heldMints
    this.heldMints = []
    this.farmingCallOut = false
    this.viaFarming = activated
    for (const mint of held) this.announceMint(mint)
    if (!activated || !this.viaFarming) {
      this.viaFarming = false
      return
    }
    const known = new Set(this.mints.map((m) => m.id))
    const since = this.fetchBegins()
    const r = await runResult(this.uc.loadMintRecords())
    runInAction(() => {
      if (r._tag === 'Success') {
        this.mints = this.withLiveSince(since, 'mint', r.success)
        for (const m of r.success) if (!known.has(m.id) && m.status === 'active') this.applyLiveMint(m)
      }
      this.fetchEnds()
      // Used or not (a repeated activation brings no new bond), the flag is spent (spec §4).
      this.viaFarming = false
    })
  }

  private firstAnnouncement(kind: 'mint' | 'stake', id: Id): boolean {
    const key = `${kind}:${id}`
    if (this.announced.has(key)) return false
    this.announced.add(key)
    return true
  }

  get activePlans(): MintPlan[] {
    return this.plans
  }

  /** Mints shown in the dashboard list: everything but those moved to staking. */
  get visibleMints(): Mint[] {
    return keepNewestPending(this.mints, this.ticker.now).filter((m) => m.status !== 'move_to_staking')
  }

  /** Stakes shown in the staking list: pending ones by the same 3-minute, newest-only rule as bonds (spec §4). */
  get visibleStakes(): Stake[] {
    return keepNewestPending(this.stakes, this.ticker.now)
  }

  get stakeableMints(): Mint[] {
    return this.mints.filter((m) => m.status === 'active')
  }

  get activeStakes(): Stake[] {
    return this.stakes.filter((s) => s.status === 'active')
  }

  /** Tokens per second across active stakes (spec §4). */
  get earningPerSecond(): number {
    return earningPerSecond(this.stakes)
  }

  /** "Total earned today": what the active stakes accrue from the start of the day (UTC) to now, every second (spec §4). */
  get earnedToday(): number {
    const now = this.ticker.now
    const dayStart = now - (now % SECONDS_PER_DAY)
    return this.activeStakes.reduce((sum, s) => sum + accruedBetween(s, dayStart, now), 0)
  }

  rewardOf(record: Mint | Stake): number {
    return rewardAt(record, this.ticker.now)
  }

  /** What cancelling `mint` now would return and cost (the backend's rule). */
  cancelCostOf(mint: Mint): CancelCost {
    return cancelCost(mint, this.ticker.now)
  }

  isBusy(id: Id): boolean {
    return this.busyIds.has(id)
  }

  private async withBusy(id: Id, work: () => Promise<boolean>): Promise<boolean> {
    const key = id
    if (this.busyIds.has(key)) return false
    this.busyIds.add(key)
    try {
      return await work()
    } finally {
      runInAction(() => this.busyIds.delete(key))
    }
  }
}
