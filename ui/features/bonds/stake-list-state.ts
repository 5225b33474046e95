import { compareShallow, computed, makeAutoObservable, runInAction } from 'mobx'
import {
  accruedBetween,
  earningPerSecond,
  type Id,
  type MintId,
  keepNewestPending,
  keepUnchanged,
  mergeLiveRecord,
  SECONDS_PER_DAY,
  type Stake,
  Submission,
  type UseCases,
} from '../../../core/index.ts'
import { runResult } from '../../state/run-effect.ts'
import type { SecondTicker } from '../../state/second-ticker.ts'
import type { BondListState } from './bond-list-state.ts'
import type { LiveRecords } from './live-merge.ts'

/** The user's stakes: the pending rule, live events, staking a mint, and what they earn. */
export class StakeListState {
  stakes: Stake[] = []
  /** The stake button: a tap again after no answer reuses the key (`Submission`). */
  private readonly stakeForm = new Submission()

  constructor(
    private readonly uc: Pick<UseCases, 'stakeMint'>,
    private readonly ticker: SecondTicker,
    private readonly live: LiveRecords,
    /** Staking moves a mint: it is busy meanwhile, and its list is fetched again after. */
    private readonly bondList: BondListState,
  ) {
    makeAutoObservable<this, 'uc' | 'ticker' | 'live' | 'bondList' | 'stakeForm'>(this, {
      // As the bonds' list: a new list only when an item came or went.
      visibleStakes: computed({ equals: compareShallow }),
      uc: false,
      ticker: false,
      live: false,
      bondList: false,
      stakeForm: false,
    })
  }

  /** A fetched list, read since `mark` (`LiveMerge`). */
  receive(mark: number, stakes: Stake[]): void {
    this.stakes = keepUnchanged(this.stakes, this.live.merge.over(mark, 'stake', stakes))
  }

  async stake(mintId: MintId): Promise<boolean> {
    return this.bondList.withBusy(mintId, async () => {
      const r = await runResult(this.stakeForm.send({ mintId: String(mintId) }, (idempotencyKey) => this.uc.stakeMint(mintId, { idempotencyKey })))
      if (r._tag === 'Success') {
        runInAction(() => (this.stakes = mergeLiveRecord(this.stakes, r.success)))
        this.live.onFiguresMoved()
        await this.bondList.refreshMints()
      }
      return r._tag === 'Success'
    })
  }

  /** A live `user:staking` event: merged, announced, and the mints refetched (spec §4). */
  applyLive(stake: Stake): void {
    this.live.merge.record('stake', stake)
    this.stakes = mergeLiveRecord(this.stakes, stake)
    if (stake.status === 'active') this.live.onFiguresMoved()
    this.live.announcements.stake(stake)
    void this.bondList.refreshMints()
  }

  /** After a failed signing, pending stakes are cleared (spec §4). */
  clearPending(): void {
    this.stakes = this.stakes.filter((s) => s.status !== 'pending')
  }

  /** Stakes shown in the staking list: pending ones by the same 3-minute, newest-only rule as bonds (spec §4). */
  get visibleStakes(): Stake[] {
    return keepNewestPending(this.stakes, this.ticker.now)
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
}
