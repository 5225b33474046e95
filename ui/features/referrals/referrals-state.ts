import { makeAutoObservable, runInAction } from 'mobx'
import type { MiniAppAddress, Referral, UseCases } from '../../../core/index.ts'
import { runResult } from '../../state/run-effect.ts'

/** What the referrals view model calls. */
export type ReferralUseCases = Pick<UseCases, 'loadReferrals' | 'markReferralsSeen' | 'inviteFriends' | 'copyText'>

/** The referral list, its '+N' badge, and inviting (spec §2, §5). */
export class ReferralsState {
  referrals: ReadonlyArray<Referral> = []
  badge: string | null = null
  loaded = false
  private viewing = false

  constructor(private readonly uc: ReferralUseCases) {
    makeAutoObservable<this, 'uc' | 'viewing'>(this, { uc: false, viewing: false })
  }

  async refresh(): Promise<void> {
    const r = await runResult(this.uc.loadReferrals())
    runInAction(() => {
      if (r._tag === 'Success') {
        this.referrals = r.success.list
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

  /** Marks the list as seen, which clears the badge. */
  markSeen(): void {
    this.uc.markReferralsSeen(this.referrals.length)
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
