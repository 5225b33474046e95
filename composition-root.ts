/**
 * The composition root: the one place where inversify lives, and wiring only. It builds the browser's
 * adapters (`browserPorts`), binds them, the API client over them, the use cases (once, with the §8
 * error policy) and one token per view model. Its one importer is the browser entry, ui/main.ts, which
 * evaluates it as the boot's first step (`composeBrowserApp`). The CLI composes the core's `useCases`
 * itself, in cli/context.ts.
 */
// The Reflect metadata API inversify needs, over the browser's own Map and WeakMap ("lite": the
// full polyfill also ships Map/Set/WeakMap shims no supported client needs). The app's build takes
// its own, smaller version of the same API (ui/lib/reflect-metadata-lite.ts, aliased in vite.config.ts).
import 'reflect-metadata/lite'
import { Container } from 'inversify'
import {
  BackgroundReads,
  confirmMoneyMovement,
  miniAppLink,
  type AxiomApi,
  type ChainReader,
  type Clock,
  type CorePorts,
  type KeyValueStore,
  makeHttpAxiomApi,
  type Notifier,
  type Platform,
  type PortBindings,
  type SessionStore,
  type SocketFactory,
  STORAGE_KEYS,
  type UseCases,
  useCases,
  type Wallet,
  withErrorPolicy,
} from './core/index.ts'
import { browserPorts } from './adapters/browser/browser-ports.ts'
import { launchSessionStore } from './adapters/browser/lazy-session-store.ts'
import { clearingSnapshot, DashboardSnapshotStore } from './adapters/browser/dashboard-snapshot-store.ts'
import { dashboardSnapshots } from './core/use-cases/dashboard-snapshot.ts'
import { KeptDashboard } from './ui/state/first-figures.ts'
import type { EarlyBoot } from './adapters/browser/early-boot.ts'
import { loadDashboard } from './ui/app/dashboard-loader.ts'
import { firstScreenPainted, firstScreenWithData } from './ui/lib/first-paint.ts'
import type { UiConfig } from './ui/lib/host-contexts.ts'
import type { ComposedApp, StartedApp } from './ui/app/started-app.ts'
import { nextTask } from './ui/lib/next-task.ts'
import { BondsState } from './ui/features/bonds/bonds-state.ts'
import type { ScreenStates } from './ui/features/app-states.ts'
import type { FarmingState, HistoryState, ReferralsState, SellState, TasksState } from './ui/features/screen-states.ts'
import { MaintenanceState } from './ui/features/maintenance/maintenance-state.ts'
import { MarketState } from './ui/features/market/market-state.ts'
import { WalletState } from './ui/features/wallet/wallet-state.ts'
import { AppState, type AppConfig, type AppDeps } from './ui/app/app-state.ts'
import { ErrorFeedback } from './ui/state/error-feedback.ts'
import { Later } from './ui/state/later.ts'
import { SecondTicker } from './ui/state/second-ticker.ts'
import { SessionState } from './ui/state/session-state.ts'
import { ToastQueue } from './ui/state/toast-queue.ts'

/** A service identifier that remembers the type it resolves to. */
type Token<T> = symbol & { readonly __resolves?: T }
const token = <T>(name: string) => Symbol.for(`axiom.${name}`) as Token<T>
interface Resolver {
  get<T>(id: Token<T>): T
}
const resolver = (ctx: { get(id: symbol): unknown }): Resolver => ({ get: <T>(id: Token<T>) => ctx.get(id) as T })

/** Gets a service from a composed container, typed by its token. */
const resolve = <T>(container: Container, id: Token<T>): T => resolver(container).get(id)

/** Service identifiers: the ports, the API, the use cases, and one per view model. */
const TOKENS = {
  sockets: token<SocketFactory>('sockets'),
  session: token<SessionStore>('session'),
  storage: token<KeyValueStore>('storage'),
  clock: token<Clock>('clock'),
  platform: token<Platform>('platform'),
  notifier: token<Notifier>('notifier'),
  wallet: token<Wallet>('wallet'),
  chain: token<ChainReader>('chain'),
  api: token<AxiomApi>('api'),
  useCases: token<UseCases>('use-cases'),
  background: token<BackgroundReads>('background-reads'),
  toasts: token<ToastQueue>('toasts'),
  ticker: token<SecondTicker>('ticker'),
  errors: token<ErrorFeedback>('errors'),
  session_: token<SessionState>('session-state'),
  maintenance: token<MaintenanceState>('maintenance-state'),
  bonds: token<BondsState>('bonds-state'),
  farming: token<FarmingState>('farming-state'),
  tasks: token<TasksState>('tasks-state'),
  referrals: token<ReferralsState>('referrals-state'),
  market: token<MarketState>('market-state'),
  history: token<HistoryState>('history-state'),
  sell: token<SellState>('sell-state'),
  wallet_: token<WalletState>('wallet-state'),
  app: token<AppState>('app'),
} as const

/** The core composed over a front end's adapters: the ports, the API client and the use cases with the §8 policy. */
const composeCore = (ports: PortBindings): Container => {
  const c = new Container({ defaultScope: 'Singleton' })
  c.bind(TOKENS.sockets).toConstantValue(ports.sockets)
  c.bind(TOKENS.session).toConstantValue(ports.session)
  c.bind(TOKENS.storage).toConstantValue(ports.storage)
  c.bind(TOKENS.clock).toConstantValue(ports.clock)
  c.bind(TOKENS.platform).toConstantValue(ports.platform)
  c.bind(TOKENS.wallet).toConstantValue(ports.wallet)
  c.bind(TOKENS.chain).toConstantValue(ports.chain)
  c.bind(TOKENS.toasts).toDynamicValue(() => new ToastQueue())
  c.bind(TOKENS.background).toDynamicValue(() => new BackgroundReads())
  if (ports.notifier) c.bind(TOKENS.notifier).toConstantValue(ports.notifier)
  else c.bind(TOKENS.notifier).toDynamicValue((ctx) => resolver(ctx).get(TOKENS.toasts))
  c.bind(TOKENS.api).toDynamicValue(() => makeHttpAxiomApi({ http: ports.http, session: ports.session }))
  c.bind(TOKENS.useCases).toDynamicValue((ctx) => {
    const r = resolver(ctx)
    const core: CorePorts = { ...ports, api: r.get(TOKENS.api), notifier: r.get(TOKENS.notifier) }
    // A call that meets maintenance shows the maintenance page; the app binds that state, a bare core has none.
    const maintenance = c.isBound(TOKENS.maintenance) ? () => r.get(TOKENS.maintenance).enter() : undefined
    return withErrorPolicy(useCases(core), {
      notifier: core.notifier,
      platform: ports.platform,
      background: r.get(TOKENS.background),
      ...(maintenance ? { onUnderMaintenance: maintenance } : {}),
    })
  })
  return c
}

/** How the app's start is paced in the browser (AppDeps); the CLI and tests leave both out. */
type StartPacing = Pick<AppDeps, 'yieldTask' | 'firstScreen' | 'snapshots'>

/** The core plus the app's MobX view models, bound and not yet made. */
const bindApp = (ports: PortBindings, config: AppConfig, options: StartPacing): Container => {
  const c = composeCore(ports)
  const bind = <T>(id: Token<T>, make: (r: Resolver) => T) => c.bind(id).toDynamicValue((ctx) => make(resolver(ctx)))
  const uc = (r: Resolver) => r.get(TOKENS.useCases)
  bind(TOKENS.ticker, (r) => new SecondTicker(r.get(TOKENS.clock)))
  bind(TOKENS.errors, (r) => new ErrorFeedback(r.get(TOKENS.notifier), r.get(TOKENS.platform)))
  bind(TOKENS.session_, (r) => new SessionState(uc(r)))
  bind(TOKENS.maintenance, (r) => new MaintenanceState(uc(r), r.get(TOKENS.platform)))
  bind(
    TOKENS.bonds,
    (r) =>
      new BondsState(
        uc(r),
        r.get(TOKENS.ticker),
        r.get(TOKENS.notifier),
        (k) => r.get(TOKENS.platform).haptic(k),
        // The user's own bond, stake or cancel moved the platform's figures (one request at a time).
        () => void r.get(TOKENS.market).refreshStats(),
      ),
  )
  bind(TOKENS.market, (r) => new MarketState(uc(r)))
  bind(TOKENS.wallet_, (r) => new WalletState(uc(r)))
  // The other screens' view models: their code is a chunk of its own, loaded when they are first
  // made (after the first paint in the browser; AppState asks before it needs them).
  const screens = () => import('./ui/features/screen-states.ts')
  const bindLater = <T>(id: Token<T>, make: (m: Awaited<ReturnType<typeof screens>>, r: Resolver) => T) =>
    c.bind(id).toDynamicValue(async (ctx) => make(await screens(), resolver(ctx)))
  bindLater(TOKENS.farming, (m, r) => new m.FarmingState(uc(r), r.get(TOKENS.bonds)))
  bindLater(TOKENS.tasks, (m, r) => new m.TasksState(uc(r), r.get(TOKENS.session_)))
  bindLater(TOKENS.referrals, (m, r) => new m.ReferralsState(uc(r)))
  bindLater(TOKENS.history, (m, r) => new m.HistoryState(uc(r)))
  // A sale or a transfer asks the device's biometric check first, where the client and the device have it.
  bindLater(TOKENS.sell, (m, r) => new m.SellState(uc(r), r.get(TOKENS.session_), confirmMoneyMovement({ platform: r.get(TOKENS.platform) })))
  const later = new Later<ScreenStates>(async () => {
    const made = <T>(id: Token<T>) => c.getAsync(id) as Promise<T>
    const [farming, tasks, referrals, history, sell] = await Promise.all([
      made(TOKENS.farming),
      made(TOKENS.tasks),
      made(TOKENS.referrals),
      made(TOKENS.history),
      made(TOKENS.sell),
    ])
    return { farming, tasks, referrals, history, sell }
  })
  bind(TOKENS.app, (r) =>
    new AppState(
      { platform: r.get(TOKENS.platform), clock: r.get(TOKENS.clock), config, uc: uc(r), background: r.get(TOKENS.background), ...options },
      {
        session: r.get(TOKENS.session_),
        maintenance: r.get(TOKENS.maintenance),
        bonds: r.get(TOKENS.bonds),
        market: r.get(TOKENS.market),
        screens: later,
        toasts: r.get(TOKENS.toasts),
        ticker: r.get(TOKENS.ticker),
        wallet: r.get(TOKENS.wallet_),
        errors: r.get(TOKENS.errors),
        ...(options.snapshots ? { kept: new KeptDashboard() } : {}),
      },
    ),
  )
  return c
}

/**
 * What `composeApp` makes in each task, in order: the use cases, then the view models the
 * dashboard and the shell show. Each is made once (singletons); the app itself comes last. The other
 * screens' view models are made later (`screens`, AppStates), with their chunk.
 */
const COMPOSE_STEPS: ReadonlyArray<ReadonlyArray<Token<unknown>>> = [
  [TOKENS.useCases],
  [TOKENS.session_, TOKENS.maintenance, TOKENS.market, TOKENS.ticker],
  [TOKENS.bonds, TOKENS.errors, TOKENS.wallet_],
]

/**
 * The mini app: the core plus its MobX view models. Given `yieldTask` (the browser), it is made over
 * several tasks, one per step: making every view model at once was one task of about 45 ms in the
 * browser's boot. Without (tests), it is made at once.
 */
export const composeApp = async (ports: PortBindings, config: AppConfig, pacing: StartPacing = {}): Promise<AppState> => {
  const c = bindApp(ports, config, pacing)
  // The container's bindings are a task's worth of work of their own (the first run of inversify's code).
  await pacing.yieldTask?.()
  for (const step of COMPOSE_STEPS) {
    for (const id of step) resolve(c, id)
    await pacing.yieldTask?.()
  }
  return resolve(c, TOKENS.app)
}

/**
 * The browser's app, built over several tasks from what the entry already has (the launch parameters,
 * the maintenance check and /user/me on their way); `start()` starts it (the maintenance check, then
 * sign-in). React is not needed for that and is evaluated by the next boot step while the requests are out.
 */
export const composeBrowserApp = async (early: EarlyBoot): Promise<ComposedApp> => {
  const env = import.meta.env
  const config: UiConfig = {
    botUsername: env.VITE_BOT_USERNAME || 'axiom_dev_bot',
    appShortName: env.VITE_APP_SHORT_NAME || 'app',
    communityUrl: env.VITE_COMMUNITY_URL || 'https://t.me/axiom_community',
  }
  let endStart = () => undefined as void
  const startEnded = new Promise<void>((resolve) => (endStart = resolve))
  /** Absolute URL of a configured endpoint, which may be given relative to this page. */
  const absolute = (url: string) => new URL(url, location.origin).toString().replace(/\/$/, '')

  const browser = browserPorts({
    apiOrigin: env.VITE_API_ORIGIN || '',
    tonV4Endpoint: absolute(env.VITE_TON_V4_ENDPOINT || 'https://mainnet-v4.tonhubapi.com'),
    manifestUrl: absolute(env.VITE_MANIFEST_URL || '/tonconnect-manifest.json'),
    ...(env.VITE_TON_WALLETS_LIST ? { walletsListSource: absolute(env.VITE_TON_WALLETS_LIST) } : {}),
    ...(env.VITE_TON_NETWORK ? { tonNetwork: env.VITE_TON_NETWORK } : {}),
    twaReturnUrl: miniAppLink(config) as `https://${string}`,
    // The wallet widget (restored at start-up) loads only once the first screen has painted.
    widgetGate: () => firstScreenPainted(),
    launch: early.launch,
    prefetched: early.answers,
    // So does the Telegram SDK, or as soon as the start ended on a full screen (maintenance, failed).
    sdkGate: () => Promise.race([firstScreenPainted(), startEnded]),
    yieldTask: nextTask,
  })
  // On a 9.0+ phone client the refresh token lives in Telegram's SecureStorage: its store (a chunk of
  // its own, which no other client loads) and its read start now, beside the boot, and sign-in waits
  // for it only when it needs it (`settled`: not for a returning user's auth_token).
  const session = launchSessionStore({
    load: () => import('./adapters/browser/secure-session-store.ts'),
    cookies: browser.session,
    features: () => browser.platform.features(),
    launch: browser.platform.launch(),
    storedUser: () => browser.storage.get(STORAGE_KEYS.user),
  })
  // A wallet transaction's validity (spec §5: 60 s); a test build sets it shorter to see the window end.
  const validity = Number(env.VITE_TON_TX_VALIDITY_SECONDS)
  // The last dashboard, kept on the device (DeviceStorage on 9.0+, else localStorage) and painted
  // before sign-in; the user-switch wipe (the local storage's clear) removes it too.
  const kept = new DashboardSnapshotStore({ launch: browser.platform.launch(), features: () => browser.platform.features(), local: browser.storage })
  const ports: PortBindings = { ...browser, session, storage: clearingSnapshot(browser.storage, kept), ...(validity > 0 ? { transactionValiditySeconds: validity } : {}) }
  // Its read starts now, beside the boot, not behind the SecureStorage read that the start may wait for,
  // in a task of its own: its decode (effect's first Schema parse) made the container's bindings' task longer.
  const keeping = dashboardSnapshots({ storage: kept, platform: ports.platform, clock: ports.clock })
  const keptRead = nextTask().then(() => keeping.load())
  const snapshots = { ...keeping, load: () => keptRead }
  const app = await composeApp(ports, config, { yieldTask: nextTask, firstScreen: firstScreenWithData, snapshots })
  // The platform's 7.2–9.x features and their view model load once the first screen has painted
  // (neither is in the entry): then a fullscreen the user left on is asked for again, the insets and
  // reduced effects reach the layout, and the home-screen offer waits for the first active bond.
  const platformFeatures = Promise.race([firstScreenPainted(), startEnded])
    .then(() => import('./ui/features/platform/platform-features-state.ts'))
    .then((m) => m.startPlatformFeatures({ platform: ports.platform, storage: ports.storage, hasActiveBond: () => app.s.bonds.bondList.stakeableMints.length > 0 }))
    .catch(() => null)
  const started: StartedApp = { app, platform: ports.platform, config, platformFeatures }
  return {
    ...started,
    start: () => {
      if (location.pathname === '/') void loadDashboard()
      void session
        .settled()
        .then(() => app.start(location.search))
        .then((phase) => phase !== 'ready' && endStart(), endStart)
      return started
    },
  }
}
