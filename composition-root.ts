/**
 * The composition root: the one place where inversify lives, and wiring only. It binds the ports a
 * front end brings, the API client over them, the use cases (once, with the §8 error policy) and one
 * token per view model. Its caller is the browser entry, ui/start-app.ts (`composeApp`); the CLI
 * composes the core's `useCases` itself, in cli/context.ts, and tests call `composeCore`.
 */
// The Reflect metadata API inversify needs, over the browser's own Map and WeakMap ("lite": the
// full polyfill also ships Map/Set/WeakMap shims no supported client needs).
import 'reflect-metadata/lite'
import { Container } from 'inversify'
import {
  BackgroundReads,
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
  type UseCases,
  useCases,
  type Wallet,
  withErrorPolicy,
} from './core/index.ts'
import { BondsState } from './ui/features/bonds/bonds-state.ts'
import { FarmingState } from './ui/features/farming/farming-state.ts'
import { HistoryState } from './ui/features/history/history-state.ts'
import { MaintenanceState } from './ui/features/maintenance/maintenance-state.ts'
import { MarketState } from './ui/features/market/market-state.ts'
import { ReferralsState } from './ui/features/referrals/referrals-state.ts'
import { SellState } from './ui/features/sell/sell-state.ts'
import { TasksState } from './ui/features/tasks/tasks-state.ts'
import { WalletState } from './ui/features/wallet/wallet-state.ts'
import { AppState, type AppConfig, type AppDeps } from './ui/state/app-state.ts'
import { ErrorFeedback } from './ui/state/error-feedback.ts'
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
export const resolve = <T>(container: Container, id: Token<T>): T => resolver(container).get(id)

/** Service identifiers: the ports, the API, the use cases, and one per view model. */
export const TOKENS = {
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

export interface CoreOptions {
  /** The API timeout; the §9 default is 25 s. */
  readonly apiTimeoutMs?: number
}

/** The core composed over a front end's adapters: the ports, the API client and the use cases with the §8 policy. */
export const composeCore = (ports: PortBindings, options: CoreOptions = {}): Container => {
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
  c.bind(TOKENS.api).toDynamicValue(() =>
    makeHttpAxiomApi({ http: ports.http, session: ports.session, ...(options.apiTimeoutMs ? { timeoutMs: options.apiTimeoutMs } : {}) }),
  )
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

/** The core plus the app's MobX view models, bound and not yet made. */
/** How the app's start is paced in the browser (AppDeps); the CLI and tests leave both out. */
type StartPacing = Pick<AppDeps, 'yieldTask' | 'firstScreen'>

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
  bind(TOKENS.farming, (r) => new FarmingState(uc(r), r.get(TOKENS.bonds)))
  bind(TOKENS.tasks, (r) => new TasksState(uc(r), r.get(TOKENS.session_)))
  bind(TOKENS.referrals, (r) => new ReferralsState(uc(r)))
  bind(TOKENS.market, (r) => new MarketState(uc(r)))
  bind(TOKENS.history, (r) => new HistoryState(uc(r)))
  bind(TOKENS.sell, (r) => new SellState(uc(r), r.get(TOKENS.session_)))
  bind(TOKENS.wallet_, (r) => new WalletState(uc(r)))
  bind(TOKENS.app, (r) =>
    new AppState(
      { platform: r.get(TOKENS.platform), clock: r.get(TOKENS.clock), config, uc: uc(r), background: r.get(TOKENS.background), ...options },
      {
        session: r.get(TOKENS.session_),
        maintenance: r.get(TOKENS.maintenance),
        bonds: r.get(TOKENS.bonds),
        farming: r.get(TOKENS.farming),
        tasks: r.get(TOKENS.tasks),
        referrals: r.get(TOKENS.referrals),
        market: r.get(TOKENS.market),
        history: r.get(TOKENS.history),
        sell: r.get(TOKENS.sell),
        toasts: r.get(TOKENS.toasts),
        ticker: r.get(TOKENS.ticker),
        wallet: r.get(TOKENS.wallet_),
        errors: r.get(TOKENS.errors),
      },
    ),
  )
  return c
}

/** The mini app: the core plus its MobX view models, ready for the React tree. */
export const composeApp = (ports: PortBindings, config: AppConfig, options: StartPacing = {}): AppState =>
  resolve(bindApp(ports, config, options), TOKENS.app)

/**
 * What `composeStepwise` makes in each task, in order: the use cases, then the view models the
 * dashboard shows, then the others. Each is made once (singletons); the app itself comes last.
 */
const COMPOSE_STEPS: ReadonlyArray<ReadonlyArray<Token<unknown>>> = [
  [TOKENS.useCases],
  [TOKENS.session_, TOKENS.maintenance, TOKENS.market, TOKENS.ticker],
  [TOKENS.bonds, TOKENS.errors, TOKENS.wallet_],
  [TOKENS.farming, TOKENS.tasks, TOKENS.referrals, TOKENS.history, TOKENS.sell],
]

/**
 * The same app as `composeApp`, made over several tasks (`yieldTask` between steps): making every
 * view model at once was one task of about 45 ms at full CPU speed in the browser's boot, most of it
 * the container's first resolutions.
 */
export const composeStepwise = async (ports: PortBindings, config: AppConfig, options: StartPacing & Required<Pick<AppDeps, 'yieldTask'>>): Promise<AppState> => {
  const c = bindApp(ports, config, options)
  for (const step of COMPOSE_STEPS) {
    for (const id of step) resolve(c, id)
    await options.yieldTask()
  }
  return resolve(c, TOKENS.app)
}
