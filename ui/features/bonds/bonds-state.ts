import { makeAutoObservable, runInAction } from 'mobx'
import { type HapticKind, type Mint, type Notifier, rewardAt, type Stake, type UseCases } from '../../../core/index.ts'
import { runResult } from '../../state/run-effect.ts'
import type { SecondTicker } from '../../state/second-ticker.ts'
import { BondAnnouncements } from './bond-announcements.ts'
import { BondListState } from './bond-list-state.ts'
import { LiveMerge } from './live-merge.ts'
import { StakeListState } from './stake-list-state.ts'

/** What the bonds view models call. */
export type BondUseCases = Pick<
  UseCases,
  | 'loadBondPlans'
  | 'loadMintRecords'
  | 'loadStakeRecords'
  | 'quoteBond'
  | 'buyBond'
  | 'offerBotMessages'
  | 'cancelBond'
  | 'quoteStake'
  | 'stakeMint'
  | 'readWalletBalance'
>

/**
 * The bonds feature: its view models (bonds, stakes, the announcements), made over one live-merge
 * log, and what the app calls on it as a whole (the lists, live events, farming). The forms' quotes
 * (bond-quote-state.ts, stake-quote-state.ts) are their screens' own, made with them over
 * `quoteBond` and `quoteStake`: their code loads with the screen, not with the first paint.
 */
export class BondsState {
  readonly announcements: BondAnnouncements
  readonly bondList: BondListState
  readonly stakeList: StakeListState
  isFetching = false
  /** The lists have been asked for once and answered (or failed): the day's accrual is known. */
  listed = false
  private readonly merge = new LiveMerge()

  constructor(
    private readonly uc: BondUseCases,
    private readonly ticker: SecondTicker,
    notifier: Notifier,
    haptic: (kind: HapticKind) => void = () => {},
    /** The user's own bond went live, or a stake or cancel went through: the platform's figures moved. */
    onFiguresMoved: () => void = () => {},
  ) {
    this.announcements = new BondAnnouncements(notifier, haptic)
    const live = { merge: this.merge, announcements: this.announcements, onFiguresMoved }
    this.bondList = new BondListState(uc, ticker, live, () => this.clearPending())
    this.stakeList = new StakeListState(uc, ticker, live, this.bondList)
    makeAutoObservable<this, 'uc' | 'ticker' | 'merge'>(this, {
      announcements: false,
      bondList: false,
      stakeList: false,
      uc: false,
      ticker: false,
      merge: false,
      readWalletBalance: false,
      quoteBond: false,
      quoteStake: false,
    })
  }

  /** The server's terms for a bond of `amount` AXIOM over `days` (the bond form's quote). */
  quoteBond(amount: number, days: number): ReturnType<UseCases['quoteBond']> {
    return this.uc.quoteBond(amount, days)
  }

  /** The server's terms for staking a mint (the stake form's quote). */
  quoteStake(mintId: Parameters<UseCases['quoteStake']>[0]): ReturnType<UseCases['quoteStake']> {
    return this.uc.quoteStake(mintId)
  }

  /** The connected wallet's coin balance, for the bond form (ui/features/bonds/wallet-balance-state.ts); never fails. */
  readWalletBalance(): ReturnType<UseCases['readWalletBalance']> {
    return this.uc.readWalletBalance()
  }

  /** The plans, bonds and stakes, asked for together. */
  async refresh(): Promise<void> {
    this.isFetching = true
    const mark = this.merge.begin()
    const [plans, mints, stakes] = await Promise.all([
      runResult(this.uc.loadBondPlans()),
      runResult(this.uc.loadMintRecords()),
      runResult(this.uc.loadStakeRecords()),
    ])
    runInAction(() => {
      if (plans._tag === 'Success') this.bondList.plans = plans.success
      if (mints._tag === 'Success') this.bondList.receive(mark, mints.success)
      if (stakes._tag === 'Success') this.stakeList.receive(mark, stakes.success)
      this.merge.end()
      this.isFetching = false
      this.listed = true
    })
  }

  /** A live `user:mint` event (spec §4). */
  applyLiveMint(mint: Mint): void {
    this.bondList.applyLive(mint)
  }

  /** A live `user:staking` event (spec §4). */
  applyLiveStake(stake: Stake): void {
    this.stakeList.applyLive(stake)
  }

  /** After a failed signing, pending mints and stakes are cleared (spec §4). */
  clearPending(): void {
    this.bondList.clearPending()
    this.stakeList.clearPending()
  }

  /** A farming activation call goes out: bonds that arrive meanwhile are announced once it answers. */
  expectFarmingBond(): void {
    this.announcements.expectFarmingBond()
  }

  /** The activation has answered (`BondListState.settleFarmingBond`). */
  settleFarmingBond(activated: boolean): Promise<void> {
    return this.bondList.settleFarmingBond(activated)
  }

  /** What a bond or stake has earned by now, every second. */
  rewardOf(record: Mint | Stake): number {
    return rewardAt(record, this.ticker.now)
  }
}
