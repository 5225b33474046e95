import { makeAutoObservable, runInAction } from 'mobx'
import type { MiniAppAddress, Referral, UseCases } from '../../../core/index.ts'
import { runResult } from '../../state/run-effect.ts'

/** What the referrals view model calls. */
export type ReferralUseCases = Pick<UseCases, 'loadReferrals' | 'markReferralsSeen' | 'inviteFriends' | 'copyText'>

/** The referral list (paged: the first page, then more on request), its '+N' badge, and inviting (spec §2, §5). */
export class ReferralsState {
  referrals: ReadonlyArray<Referral> = []
  /** How many referrals there are in all (the pages not loaded included). */
  total = 0
  badge: string | null = null
  loaded = false
  loadingMore = false
  private page = 1
  private limit = 1
  private viewing = false

  constructor(private readonly uc: ReferralUseCases) {
    makeAutoObservable<this, 'uc' | 'viewing'>(this, { uc: false, viewing: false })
  }

  /** Pages beyond those loaded so far. */
  get hasMore(): boolean {
    return this.page * this.limit < this.total
  }

  /** The first page again (what was loaded beyond it is let go). */
  async refresh(): Promise<void> {
    const r = await runResult(this.uc.loadReferrals(1))
    runInAction(() => {
      if (r._tag === 'Success') {
        this.referrals = r.success.list
        this.total = r.success.total
        this.page = 1
        this.limit = r.success.limit
        this.badge = r.success.badge
        this.loaded = true
        if (this.viewing) this.markSeen()
      }
    })
  }

  /**
   * The referral screen is open: the list counts as seen once it has loaded, and again after each
   * refresh while the screen stays open. Returns what to call when it closes.
   */
  view(): () => void {
    this.viewing = true
    if (this.loaded) this.markSeen()
    return () => {
      this.viewing = false
    }
  }

  /**
   * The next page, added below. A referral that arrived meanwhile shifts the pages by one: what the
   * list already holds is not added twice (and the newcomer shows on the next refresh).
   */
  async loadMore(): Promise<void> {
    if (this.loadingMore || !this.hasMore) return
    this.loadingMore = true
    const r = await runResult(this.uc.loadReferrals(this.page + 1))
    runInAction(() => {
      this.loadingMore = false
      if (r._tag !== 'Success') return
      const held = new Set(this.referrals.map((x) => x.id))
      this.referrals = [...this.referrals, ...r.success.list.filter((x) => !held.has(x.id))]
      this.total = r.success.total
      this.page = r.success.page
    })
  }

  /** Marks the list as seen, which clears the badge. */
  markSeen(): void {
    this.uc.markReferralsSeen(this.total)
    this.badge = null
  }

  async invite(app: MiniAppAddress, refCode: string): Promise<void> {
    await runResult(this.uc.inviteFriends(app, refCode))
  }

  async copy(text: string): Promise<boolean> {
    const r = await runResult(this.uc.copyText(text))
    return r._tag === 'Success' && r.success
  }
}
