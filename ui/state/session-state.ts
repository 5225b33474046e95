import { makeAutoObservable, runInAction } from 'mobx'
import type { ApiError, BalanceUpdate, UseCases, UserData } from '../../core/index.ts'
import { runResult } from './run-effect.ts'

export type SessionStatus = 'idle' | 'signing-in' | 'signed-in' | 'outside-platform' | 'reloading' | 'failed'

/** Who is signed in and their balances. */
export class SessionState {
  status: SessionStatus = 'idle'
  user: UserData | null = null
  isFetching = false

  constructor(private readonly uc: Pick<UseCases, 'authenticate' | 'loadUser'>) {
    makeAutoObservable<this, 'uc'>(this, { uc: false })
  }

  /** Signs in (cookie → refresh → init data) and loads the user. */
  async signIn(): Promise<SessionStatus> {
    this.status = 'signing-in'
    const auth = await runResult(this.uc.authenticate())
    if (auth._tag === 'Failure') {
      runInAction(() => (this.status = auth.failure._tag === 'OutsidePlatform' ? 'outside-platform' : 'failed'))
      return this.status
    }
    if (auth.success === 'reloading') {
      runInAction(() => (this.status = 'reloading'))
      return this.status
    }
    // A stale auth cookie whose refresh is refused: the cookies are gone now, so signing in again
    // goes on to the init data (spec §4 order) instead of ending on a failed start.
    if ((await this.refresh()) === 'Unauthorized' && (await runResult(this.uc.authenticate()))._tag === 'Success') await this.refresh()
    runInAction(() => (this.status = this.user ? 'signed-in' : 'failed'))
    return this.status
  }

  /** Reloads the user; gives back the failure's tag when it failed. */
  async refresh(): Promise<ApiError['_tag'] | null> {
    this.isFetching = true
    const user = await runResult(this.uc.loadUser())
    runInAction(() => {
      if (user._tag === 'Success' && user.success) this.user = user.success
      this.isFetching = false
    })
    return user._tag === 'Failure' ? user.failure._tag : null
  }

  /** A live `user:balance` event. */
  applyBalance(update: BalanceUpdate): void {
    if (this.user) this.user = { ...this.user, ...update }
  }

  /** A live `global:collective_bonus` event. */
  applyCollectiveBonus(collective_bonus: number): void {
    if (this.user) this.user = { ...this.user, collective_bonus }
  }

  /** The blocking community modal shows while community_participation is false (spec §5). */
  get mustJoinCommunity(): boolean {
    return this.user !== null && !this.user.community_participation
  }
}
