import { when } from 'mobx'
import type { FarmingState } from '../features/farming/farming-state.ts'
import type { SessionState } from '../state/session-state.ts'

/**
 * A farm code is checked only once the user is a community member. Before that the blocking
 * community modal would cover the outcome, and since a code is checked once, nobody would ever
 * see it. Joining ends with 'Done', which reloads the app, and the check runs on that start (or
 * here, as soon as a refetch finds the user a member).
 */
export class FarmCodeGate {
  private cancel: (() => void) | null = null

  constructor(
    private readonly session: Pick<SessionState, 'mustJoinCommunity'>,
    private readonly farming: Pick<FarmingState, 'activate'>,
  ) {}

  check(code: string): void {
    this.close()
    this.cancel = when(
      () => !this.session.mustJoinCommunity,
      () => void this.farming.activate(code),
    )
  }

  close(): void {
    this.cancel?.()
    this.cancel = null
  }
}
