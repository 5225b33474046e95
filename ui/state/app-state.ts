import { makeAutoObservable, runInAction, when } from 'mobx'
import {
  APP_BACKGROUND_COLOR,
  BackgroundReads,
  type Clock,
  farmCodeFromQuery,
  farmCodeOf,
  type LiveEvent,
  parseStartParam,
  type Platform,
  type ReconnectingSocket,
  shouldRefetchOnVisible,
  type SocketStatus,
  type UseCases,
} from '../../core/index.ts'
import type { BondsState } from '../features/bonds/bonds-state.ts'
import type { FarmingState } from '../features/farming/farming-state.ts'
import type { HistoryState } from '../features/history/history-state.ts'
import type { MaintenanceState } from '../features/maintenance/maintenance-state.ts'
import type { MarketState } from '../features/market/market-state.ts'
import type { ReferralsState } from '../features/referrals/referrals-state.ts'
import type { SellState } from '../features/sell/sell-state.ts'
import type { TasksState } from '../features/tasks/tasks-state.ts'
import type { WalletState } from '../features/wallet/wallet-state.ts'
import type { ErrorFeedback } from './error-feedback.ts'
import type { SecondTicker } from './second-ticker.ts'
import type { SessionState } from './session-state.ts'
import type { ToastQueue } from './toast-queue.ts'

export interface AppConfig {
  /** The product's bot, where the app sends users who open it outside Telegram. */
  readonly botUsername: string
  readonly communityUrl: string
}

export interface AppDeps {
  readonly platform: Platform
  readonly clock: Clock
  readonly uc: Pick<UseCases, 'openLiveFeed'>
  readonly config: AppConfig
  /** Marks the refetch after a reconnect as the app's own (quiet, retried); the use cases' policy reads it. */
  readonly background?: BackgroundReads
  /** Runs `run` after `ms`; answers how to cancel it. Tests bring their own. */
  readonly schedule?: (run: () => void, ms: number) => () => void
  /**
   * Resolves in a later task (in the browser, ui/lib/next-task.ts): the start's steps after sign-in
   * (each list request and its decoding, the sockets) are a few milliseconds of main thread each,
   * and together one long task while the dashboard renders. Without it they run one after another.
   */
  readonly yieldTask?: () => Promise<void>
  /**
   * Resolves once the first screen has painted (in the browser, ui/app/first-paint.ts). With it, the
   * start asks only for what the dashboard's first paint shows (the user, their bonds, the price)
   * before that paint; the other lists, the sockets and the wallet follow it, so they neither hold
   * the paint nor share the network with it.
   */
  readonly firstScreen?: () => Promise<void>
}

/** The reconnect refetch tries again after 1 s, 2 s, 4 s, … and never waits longer than this. */
export const RECONNECT_REFETCH_BACKOFF_MS = { first: 1_000, max: 30_000 } as const

const scheduleWithTimer = (run: () => void, ms: number) => {
  const t = setTimeout(run, ms)
  return () => clearTimeout(t)
}

export interface AppStates {
  readonly session: SessionState
  readonly maintenance: MaintenanceState
  readonly bonds: BondsState
  readonly farming: FarmingState
  readonly tasks: TasksState
  readonly referrals: ReferralsState
  readonly market: MarketState
  readonly history: HistoryState
  readonly sell: SellState
  readonly toasts: ToastQueue
  readonly ticker: SecondTicker
  readonly wallet: WalletState
  /** How every error the UI shows reaches the user, with the error haptic. */
  readonly errors: ErrorFeedback
}

export type AppPhase = 'loading' | 'maintenance' | 'outside-platform' | 'ready' | 'failed'

/** The app as a whole: start-up, live events, the visibility refetch, and the full-screen states. */
export class AppState {
  phase: AppPhase = 'loading'
  socketStatus: SocketStatus = 'closed'
  private lastRefetchMs: number | null = null
  private mainSocket: ReconnectingSocket | null = null
  private unsubscribeVisibility: (() => void) | null = null
  private cancelFarmCheck: (() => void) | null = null
  /** Bumped when the socket leaves 'open' or the app stops: a reconnect refetch of an older round gives up. */
  private reconnectRound = 0
  private cancelRetry: (() => void) | null = null
  private readonly background: BackgroundReads

  constructor(
    private readonly deps: AppDeps,
    readonly s: AppStates,
  ) {
    this.background = deps.background ?? new BackgroundReads()
    makeAutoObservable<
      this,
      'deps' | 'lastRefetchMs' | 'mainSocket' | 'unsubscribeVisibility' | 'cancelFarmCheck' | 'reconnectRound' | 'cancelRetry' | 'background'
    >(this, {
      deps: false,
      reconnectRound: false,
      cancelRetry: false,
      background: false,
      s: false,
      lastRefetchMs: false,
      mainSocket: false,
      unsubscribeVisibility: false,
      cancelFarmCheck: false,
    })
  }

  /** Starts the app: platform set-up, maintenance, sign-in, data, sockets, a farm code from `search`. */
  async start(search: string): Promise<AppPhase> {
    const { platform, config } = this.deps
    platform.setup({ background: APP_BACKGROUND_COLOR, header: APP_BACKGROUND_COLOR })
    this.s.maintenance.startPolling()
    if (await this.s.maintenance.check()) return this.setPhase('maintenance')

    const signedIn = await this.s.session.signIn()
    if (signedIn === 'outside-platform') {
      platform.redirect(`https://t.me/${config.botUsername}`)
      return this.setPhase('outside-platform')
    }
    if (signedIn === 'reloading') return this.phase
    if (signedIn !== 'signed-in') return this.setPhase('failed')

    // Signing in loaded the user: the dashboard can show the balances while the lists arrive. Its
    // own lists are asked first; each step after that in a task of its own. With firstScreen, only
    // the bonds and the price are asked for before the first screen has painted with them (the main
    // balance shows the bonds' accrual); the other lists, the sockets and the wallet follow that paint.
    // Without yieldTask (the CLI, tests) the steps run one after another in this task, as they did.
    const { yieldTask: step, firstScreen } = this.deps
    const { bonds, market, farming, tasks, referrals } = this.s
    this.lastRefetchMs = this.deps.clock.nowMs()
    // In the browser the dashboard renders while the rest arrives: ready at once.
    if (step) this.setPhase('ready')
    this.s.ticker.start()
    let lists: Promise<unknown>
    if (firstScreen) {
      const firstData = Promise.all([bonds.refresh(), market.refreshPrice()])
      await firstData.then(firstScreen, firstScreen)
      const chartAndStats = { refresh: () => market.refreshChartAndStats() }
      lists = Promise.all([firstData, this.refetchLists(step, [chartAndStats, farming, tasks, referrals])])
    } else lists = this.refetchLists(step)
    if (step) await step()
    // The bonds were read before the first paint, a while before the socket listens: a bond paid
    // meanwhile (its event went to nobody) is read again once the server has greeted the socket.
    // The greeting itself brings the balances.
    this.openSockets(firstScreen ? () => bonds.refresh() : undefined)
    if (step) await step()
    void this.s.wallet.restore()
    this.unsubscribeVisibility = platform.onVisibilityChange((visible) => {
      if (visible) void this.onVisible()
    })
    if (!step) this.setPhase('ready')
    await lists

    const code = farmCodeFromQuery(search) ?? farmCodeOf(parseStartParam(platform.launch()?.startParam))
    if (code) this.checkFarmCodeOnceMember(code)
    return this.phase
  }

  async refetchAll(): Promise<void> {
    this.lastRefetchMs = this.deps.clock.nowMs()
    await Promise.all([this.s.session.refresh(), this.refetchLists()])
  }

  /** Every list again (or `which`), the dashboard's first; with `step`, each request is sent in a task of its own. */
  private async refetchLists(step?: () => Promise<void>, which?: ReadonlyArray<{ refresh(): Promise<void> }>): Promise<void> {
    const { bonds, market, farming, tasks, referrals } = this.s
    const loads: Array<Promise<void>> = []
    for (const list of which ?? [bonds, market, farming, tasks, referrals]) {
      const load = list.refresh()
      // Told by Promise.all below; not an unhandled rejection while the next step waits.
      load.catch(() => undefined)
      loads.push(load)
      if (step) await step()
    }
    await Promise.all(loads)
  }

  /** Back in view: refetch if 10 s passed since the last refetch, and reopen closed sockets (spec §4). */
  async onVisible(): Promise<void> {
    this.mainSocket?.ensureOpen()
    this.s.market.openLive()
    if (shouldRefetchOnVisible(this.lastRefetchMs, this.deps.clock.nowMs())) await this.refetchAll()
  }

  /** Routes a live event to the state it changes. */
  dispatch(event: LiveEvent): void {
    const { session, bonds, market } = this.s
    switch (event.event) {
      case 'user:balance':
        return session.applyBalance(event.data)
      case 'global:collective_bonus':
        return session.applyCollectiveBonus(event.data.collective_bonus)
      case 'user:mint':
        return bonds.applyLiveMint(event.data)
      case 'user:staking':
        return bonds.applyLiveStake(event.data)
      case 'price_update':
        return market.applyPrice(event.data)
      case 'current_candle':
        return market.applyCandle(event.data)
    }
  }

  stop(): void {
    this.endReconnectRefetch()
    this.mainSocket?.close()
    this.s.market.closeLive()
    this.unsubscribeVisibility?.()
    this.cancelFarmCheck?.()
    this.s.ticker.stop()
    this.s.maintenance.stopPolling()
  }

  /**
   * The main socket. Events sent while it was down are not sent again (the server greets a socket
   * with the balance only), so when it opens again after a drop the user and the lists are refetched.
   * Not as soon as it opens: the server subscribes the socket once it has checked the token, and then
   * greets it (`user:balance` first, docs/api.md). A refetch read before that could miss a record
   * made in between, whose event went to nobody; one made after the greeting cannot.
   */
  private openSockets(readBeforeListening?: () => Promise<void>): void {
    let wasOpen = false
    let awaitingGreeting = false
    this.mainSocket = this.deps.uc.openLiveFeed(
      (e) => {
        this.dispatch(e)
        if (!awaitingGreeting) return
        awaitingGreeting = false
        if (!readBeforeListening) return this.reconnectRefetch()
        // The first greeting: what the start read well before the socket listened is read again.
        const read = readBeforeListening
        readBeforeListening = undefined
        void this.background.run(read)
      },
      (status) => {
        runInAction(() => (this.socketStatus = status))
        if (status !== 'open') {
          awaitingGreeting = false
          return this.endReconnectRefetch()
        }
        if (wasOpen || readBeforeListening) awaitingGreeting = true
        wasOpen = true
      },
    )
    this.s.market.openLive()
  }

  /**
   * The refetch after a reconnect, made quietly (`BackgroundReads`): a read that gets no answer is not
   * told and does not empty its list. Until every read came back it is made again after 1 s, 2 s,
   * 4 s, … (at most 30 s apart), for as long as the socket stays open: a backend that just restarted
   * or a gateway error must not leave the app behind until the next drop or return into view.
   */
  private reconnectRefetch(): void {
    this.endReconnectRefetch()
    const round = this.reconnectRound
    const schedule = this.deps.schedule ?? scheduleWithTimer
    const attempt = async (waitMs: number): Promise<void> => {
      const complete = await this.background.run(() => this.refetchAll())
      if (complete || round !== this.reconnectRound) return
      this.cancelRetry = schedule(() => {
        this.cancelRetry = null
        if (round === this.reconnectRound) void attempt(Math.min(waitMs * 2, RECONNECT_REFETCH_BACKOFF_MS.max))
      }, waitMs)
    }
    void attempt(RECONNECT_REFETCH_BACKOFF_MS.first)
  }

  private endReconnectRefetch(): void {
    this.reconnectRound++
    this.cancelRetry?.()
    this.cancelRetry = null
  }

  /**
   * A farm code is checked only once the user is a community member. Before that the blocking
   * community modal would cover the outcome, and since a code is checked once, nobody would ever
   * see it. Joining ends with 'Done', which reloads the app, and the check runs on that start (or
   * here, as soon as a refetch finds the user a member).
   */
  private checkFarmCodeOnceMember(code: string): void {
    this.cancelFarmCheck = when(
      () => !this.s.session.mustJoinCommunity,
      () => void this.s.farming.activate(code),
    )
  }

  private setPhase(phase: AppPhase): AppPhase {
    this.phase = phase
    return phase
  }
}
