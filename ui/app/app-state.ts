import { compareStructural, makeAutoObservable, reaction, when } from 'mobx'
import {
  APP_BACKGROUND_COLOR,
  BackgroundReads,
  type Clock,
  farmCodeFromQuery,
  farmCodeOf,
  parseStartParam,
  type Platform,
  shouldRefetchOnVisible,
  type SocketStatus,
  type UseCases,
} from '../../core/index.ts'
import type { DashboardFigures } from '../../core/domain/dashboard-snapshot.ts'
import { SNAPSHOT_MAX_BONDS } from '../../core/domain/kept-dashboard.ts'
import type { DashboardSnapshots } from '../../core/use-cases/dashboard-snapshot.ts'
import { firstFiguresIn } from '../state/first-figures.ts'
import { routeLiveEvent } from './event-router.ts'
import { FarmCodeGate } from './farm-code-gate.ts'
import { LiveConnection, type Schedule } from '../state/live-connection.ts'
import type { AppStates } from '../features/app-states.ts'

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
  readonly schedule?: Schedule
  /**
   * Resolves in a later task (in the browser, ui/lib/next-task.ts): the start's steps after sign-in
   * (each list request and its decoding, the sockets) are a few milliseconds of main thread each,
   * and together one long task while the dashboard renders. Without it they run one after another.
   */
  readonly yieldTask?: () => Promise<void>
  /**
   * Resolves once the first screen has painted (in the browser, ui/lib/first-paint.ts). With it, the
   * start asks only for what the dashboard's first paint shows (the user, their bonds, the price)
   * before that paint; the other lists, the sockets and the wallet follow it, so they neither hold
   * the paint nor share the network with it.
   */
  readonly firstScreen?: () => Promise<void>
  /**
   * The last dashboard kept on the device (Telegram's DeviceStorage or localStorage): read as the
   * start begins and painted, if it is this user's and young enough, until the fresh figures are in;
   * written again as those figures change. Without it (the CLI, most tests) nothing is kept.
   */
  readonly snapshots?: DashboardSnapshots
}

/** How long the figures stay unchanged before the kept dashboard is written again; going out of view writes at once. */
export const SNAPSHOT_SAVE_DELAY_MS = 5_000


export type AppPhase = 'loading' | 'maintenance' | 'outside-platform' | 'ready' | 'failed'

/**
 * The app as a whole: the start (boot), the visibility refetch and the full-screen states. The main
 * socket and its reconnect refetch are `LiveConnection`'s, the routing of its events
 * `routeLiveEvent`'s, and the farm code's wait for membership `FarmCodeGate`'s.
 */
export class AppState {
  phase: AppPhase = 'loading'
  private lastRefetchMs: number | null = null
  private unsubscribeVisibility: (() => void) | null = null
  /** Stops keeping the dashboard on the device (its watch of the figures). */
  private stopKeeping: () => void = () => {}
  private readonly connection: LiveConnection
  /** The farm code's wait for membership, once a code is checked (it needs the farming view model). */
  private farmCodeGate: FarmCodeGate | null = null

  constructor(
    private readonly deps: AppDeps,
    readonly s: AppStates,
  ) {
    this.connection = new LiveConnection({
      uc: deps.uc,
      background: deps.background ?? new BackgroundReads(),
      onEvent: (e) => routeLiveEvent(s, e),
      refetchAll: () => this.refetchAll(),
      schedule: deps.schedule,
    })
    makeAutoObservable<this, 'deps' | 'lastRefetchMs' | 'unsubscribeVisibility' | 'stopKeeping' | 'connection' | 'farmCodeGate'>(this, {
      deps: false,
      s: false,
      lastRefetchMs: false,
      unsubscribeVisibility: false,
      stopKeeping: false,
      connection: false,
      farmCodeGate: false,
    })
  }

  get socketStatus(): SocketStatus {
    return this.connection.status
  }

  /** Starts the app: platform set-up, maintenance, sign-in, data, sockets, a farm code from `search`. */
  async start(search: string): Promise<AppPhase> {
    const { platform, config } = this.deps
    platform.setup({ background: APP_BACKGROUND_COLOR, header: APP_BACKGROUND_COLOR })
    // A returning user's last dashboard is painted while the maintenance check and sign-in go on.
    this.keepDashboard()
    this.s.maintenance.startPolling()
    if (await this.s.maintenance.check()) return this.setPhase('maintenance')

    const signedIn = await this.s.session.signIn()
    if (signedIn === 'outside-platform') {
      platform.redirect(`https://t.me/${config.botUsername}`)
      return this.setPhase('outside-platform')
    }
    if (signedIn === 'reloading') {
      // Another user's launch: the page reloads after the wipe, and nothing of the last one shows meanwhile.
      this.s.kept?.clear()
      return this.phase
    }
    if (signedIn !== 'signed-in') return this.setPhase('failed')

    // Signing in loaded the user: the dashboard can show the balances while the lists arrive. Its
    // own lists are asked first; each step after that in a task of its own. With firstScreen, only
    // the bonds and the price are asked for before the first screen has painted with them (the main
    // balance shows the bonds' accrual); the other lists, the sockets and the wallet follow that paint.
    // Without yieldTask (the CLI, tests) the steps run one after another in this task, as they did.
    const { yieldTask: step, firstScreen } = this.deps
    const { bonds, market } = this.s
    this.lastRefetchMs = this.deps.clock.nowMs()
    // In the browser the dashboard renders while the rest arrives: ready at once.
    if (step) this.setPhase('ready')
    this.s.ticker.start()
    let lists: Promise<unknown>
    if (firstScreen) {
      const firstData = Promise.all([bonds.refresh(), market.refreshPrice()])
      await firstData.then(firstScreen, firstScreen)
      // The other screens' view models (their chunk) are made after that paint, their lists with them.
      // If their chunk did not download, the dashboard stays as it is; a screen that needs them tries again.
      const screens = this.s.screens.load()
      const chartAndStats = this.refetchLists(step, [{ refresh: () => market.refreshChartAndStats() }])
      const others = screens.then(({ farming, tasks, referrals }) => this.refetchLists(step, [farming, tasks, referrals]), () => undefined)
      lists = Promise.all([firstData, chartAndStats, others])
      // The socket opens once they are asked for, as when they were made at boot: its first greeting
      // reads the bonds again in the background, and a read that starts meanwhile is quiet (§8: no
      // toast for a list that failed).
      await screens.catch(() => undefined)
    } else lists = this.refetchLists(step)
    if (step) await step()
    // The bonds were read before the first paint, a while before the socket listens: a bond paid
    // meanwhile (its event went to nobody) is read again once the server has greeted the socket.
    // The greeting itself brings the balances, and re-renders them in its own task; the re-read
    // starts in the next one.
    this.connection.open(
      firstScreen
        ? async () => {
            await step?.()
            await bonds.refresh()
          }
        : undefined,
    )
    market.openLive()
    if (step) await step()
    void this.s.wallet.restore()
    this.unsubscribeVisibility = platform.onVisibilityChange((visible) => {
      if (visible) void this.onVisible()
    })
    if (!step) this.setPhase('ready')
    await lists

    const code = farmCodeFromQuery(search) ?? farmCodeOf(parseStartParam(platform.launch()?.startParam))
    const farming = code ? (await this.s.screens.load().catch(() => null))?.farming : undefined
    if (code && farming) {
      this.farmCodeGate ??= new FarmCodeGate(this.s.session, farming)
      this.farmCodeGate.check(code)
    }
    return this.phase
  }

  /** Everything again; the other screens' lists only once their view models are made (the start asks for them then). */
  async refetchAll(): Promise<void> {
    this.lastRefetchMs = this.deps.clock.nowMs()
    await Promise.all([this.s.session.refresh(), this.refetchLists(), this.s.screens.current?.history.refetchShown()])
  }

  /**
   * Every list again (or `which`), the dashboard's first; with `step`, each request is sent in a task
   * of its own. Without `which`, the other screens' lists are asked for if their view models are made
   * (the start asks for them once they are), or, with no first screen to wait for (the CLI, tests),
   * once they are made for it.
   */
  private async refetchLists(step?: () => Promise<void>, which?: ReadonlyArray<{ refresh(): Promise<void> }>): Promise<void> {
    const loads: Array<Promise<void>> = []
    const ask = async (lists: ReadonlyArray<{ refresh(): Promise<void> }>) => {
      for (const list of lists) {
        const load = list.refresh()
        // Told by Promise.all below; not an unhandled rejection while the next step waits.
        load.catch(() => undefined)
        loads.push(load)
        if (step) await step()
      }
    }
    if (which) await ask(which)
    else {
      await ask([this.s.bonds, this.s.market])
      const screens = this.deps.firstScreen ? this.s.screens.current : await this.s.screens.load()
      if (screens) await ask([screens.farming, screens.tasks, screens.referrals])
    }
    await Promise.all(loads)
  }

  /** Back in view: refetch if 10 s passed since the last refetch, and reopen closed sockets (spec §4). */
  async onVisible(): Promise<void> {
    this.connection.ensureOpen()
    this.s.market.openLive()
    if (shouldRefetchOnVisible(this.lastRefetchMs, this.deps.clock.nowMs())) await this.refetchAll()
  }

  /**
   * The kept dashboard: read it and show it (this user's, young enough: core/domain/dashboard-snapshot.ts)
   * unless the fresh figures came first; once they are in, clear it and keep them instead, at once (in
   * the next task) and again whenever they have changed and stayed so for SNAPSHOT_SAVE_DELAY_MS, or the app goes out of view.
   */
  private keepDashboard(): void {
    const { snapshots } = this.deps
    const kept = this.s.kept
    if (!snapshots || !kept) return
    void snapshots.load().then(
      (snapshot) => {
        if (!snapshot || firstFiguresIn(this.s) || (this.phase !== 'loading' && this.phase !== 'ready')) return
        kept.show(snapshot)
        // On the page's timeline beside the boot's marks (docs/boot-performance.md; bench:lighthouse reads it).
        globalThis.performance?.mark?.('axiom:kept-dashboard-shown')
      },
      () => undefined,
    )
    const figures = (): DashboardFigures | null => {
      const { session, bonds, market } = this.s
      const user = session.user
      if (!user) return null
      return {
        balances: {
          balance_token: user.balance_token,
          task_balance: user.task_balance,
          referral_balance: user.referral_balance,
          ...(user.locked_balance === undefined ? {} : { locked_balance: user.locked_balance }),
        },
        mints: bonds.bondList.visibleMints.slice(0, SNAPSHOT_MAX_BONDS),
        stakes: bonds.stakeList.activeStakes,
        price: market.price,
      }
    }
    const save = () => {
      const now = figures()
      if (now) snapshots.save(now)
    }
    const fresh = when(() => firstFiguresIn(this.s))
    let stopWatch = () => {}
    let stopHidden = () => {}
    let stopped = false
    void fresh.then(
      async () => {
        kept.clear()
        // Kept in the next task (with yieldTask): the figures' arrival is already one of the boot's
        // longest (sign-in, the lists, the price), and writing them (encoded, into storage) is not
        // needed for this paint.
        await this.deps.yieldTask?.()
        if (stopped) return
        save()
        stopWatch = reaction(figures, save, { delay: SNAPSHOT_SAVE_DELAY_MS, equals: compareStructural })
        stopHidden = this.deps.platform.onVisibilityChange((visible) => visible || save())
      },
      () => undefined,
    )
    this.stopKeeping = () => {
      stopped = true
      fresh.cancel()
      stopWatch()
      stopHidden()
    }
  }

  stop(): void {
    this.stopKeeping()
    this.connection.close()
    this.s.market.closeLive()
    this.unsubscribeVisibility?.()
    this.farmCodeGate?.close()
    this.s.ticker.stop()
    this.s.maintenance.stopPolling()
  }

  private setPhase(phase: AppPhase): AppPhase {
    // A full screen (maintenance, failed, outside Telegram) is all there is: the kept dashboard goes.
    if (phase !== 'ready' && phase !== 'loading') this.s.kept?.clear()
    this.phase = phase
    return phase
  }
}
