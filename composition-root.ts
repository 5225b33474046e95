/**
 * The composition root: the one place where inversify lives. It binds the ports to adapters, the
 * use cases to the ports, and the view models to the use cases. The browser entry (ui/main.tsx)
 * calls `composeApp` with browser adapters; the CLI calls `composeCore` with Node adapters.
 */
import 'reflect-metadata'
import { Effect } from 'effect'
import { Container } from 'inversify'
import {
  type AxiomApi,
  advanceTask,
  authenticate,
  buyBond,
  cancelBond,
  cancelFarmingLink,
  checkFarmCode,
  checkMaintenance,
  type ChainReader,
  type Clock,
  createFarmingLink,
  type HttpTransport,
  inviteFriends,
  type KeyValueStore,
  loadBondPlans,
  loadCandles,
  loadFarmingLinks,
  loadFarmingPlans,
  loadFinancialStats,
  loadMints,
  loadOperationsHistory,
  loadPrice,
  loadReferrals,
  loadStakes,
  loadTasks,
  loadUser,
  connectWallet,
  disconnectWallet,
  restoreWallet,
  loadWithdrawHistory,
  makeHttpAxiomApi,
  markReferralsSeen,
  type Notifier,
  openCandleSocket,
  openMainSocket,
  type Platform,
  quoteBond,
  quoteFarming,
  quoteSale,
  quoteStake,
  sellTokens,
  type SessionStore,
  type SocketFactory,
  stakeMint,
  transferReferralBalance,
  type Wallet,
} from './core/index.ts'
import { AppState, type AppConfig } from './ui/state/app-state.ts'
import { BondsState } from './ui/state/bonds-state.ts'
import { ErrorFeedback } from './ui/state/error-feedback.ts'
import { FarmingState } from './ui/state/farming-state.ts'
import { HistoryState } from './ui/state/history-state.ts'
import { MaintenanceState } from './ui/state/maintenance-state.ts'
import { MarketState } from './ui/state/market-state.ts'
import { ReferralsState } from './ui/state/referrals-state.ts'
import { SecondTicker } from './ui/state/second-ticker.ts'
import { SellState } from './ui/state/sell-state.ts'
import { SessionState } from './ui/state/session-state.ts'
import { TasksState } from './ui/state/tasks-state.ts'
import { ToastQueue } from './ui/state/toast-queue.ts'
import { WalletState } from './ui/state/wallet-state.ts'

export interface BoundPorts extends Omit<PortBindings, 'notifier' | 'http' | 'sockets'> {
  readonly api: AxiomApi
  readonly notifier: Notifier
}

/** The adapters a front end brings. */
export interface PortBindings {
  readonly http: HttpTransport
  readonly sockets: SocketFactory
  readonly session: SessionStore
  readonly storage: KeyValueStore
  readonly clock: Clock
  readonly platform: Platform
  readonly notifier?: Notifier
  readonly wallet: Wallet
  readonly chain: ChainReader
}

/** A service identifier that remembers the type it resolves to. */
type Token<T> = symbol & { readonly __resolves?: T }
const token = <T>(name: string) => Symbol.for(`axiom.${name}`) as Token<T>
interface Resolver {
  get<T>(id: Token<T>): T
}
const resolver = (ctx: { get(id: symbol): unknown }): Resolver => ({ get: <T>(id: Token<T>) => ctx.get(id) as T })

/** Gets a service from a composed container, typed by its token. */
export const resolve = <T>(container: Container, id: Token<T>): T => resolver(container).get(id)

/** Service identifiers: ports, the API, and the app's states. */
export const TOKENS = {
  http: token<HttpTransport>('http'),
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
  toasts: token<ToastQueue>('toasts'),
  app: token<AppState>('app'),
} as const

/** Every use case, bound to its ports. */
export const bindUseCases = ({ api, clock, storage, platform, session, notifier, wallet, chain }: BoundPorts) => {
  return {
    authenticate: () => authenticate({ api, session, storage, platform }),
    checkMaintenance: () => checkMaintenance({ api }),
    loadUser: () => loadUser({ api }),
    loadBondPlans: () => loadBondPlans({ api }),
    loadMints: () => loadMints({ api, clock }),
    loadStakes: () => loadStakes({ api, clock }),
    quoteBond: quoteBond({ api }),
    buyBond: buyBond({ api, wallet, chain, clock, notifier }),
    cancelBond: cancelBond({ api }),
    quoteStake: quoteStake({ api }),
    stakeMint: stakeMint({ api }),
    loadFarmingPlans: loadFarmingPlans({ api }),
    loadFarmingLinks: () => loadFarmingLinks({ api }),
    quoteFarming: quoteFarming({ api }),
    createFarmingLink: createFarmingLink({ api }),
    cancelFarmingLink: cancelFarmingLink({ api }),
    checkFarmCode: checkFarmCode({ api, storage }),
    quoteSale: quoteSale({ api }),
    sellTokens: sellTokens({ api }),
    transferReferralBalance: transferReferralBalance({ api }),
    loadWithdrawHistory: loadWithdrawHistory({ api }),
    loadOperationsHistory: loadOperationsHistory({ api }),
    loadTasks: () => loadTasks({ api }),
    advanceTask: advanceTask({ api }),
    loadReferrals: () => loadReferrals({ api, storage }),
    markReferralsSeen: markReferralsSeen({ storage }),
    inviteFriends: inviteFriends({ api, platform }),
    loadPrice: () => loadPrice({ api }),
    loadCandles: loadCandles({ api, clock }),
    loadFinancialStats: () => loadFinancialStats({ api }),
    restoreWallet: () => restoreWallet({ wallet }),
    connectWallet: () => connectWallet({ wallet, api }),
    disconnectWallet: () => disconnectWallet({ wallet }),
    onAccountChange: (listener: Parameters<Wallet['onAccountChange']>[0]) => wallet.onAccountChange(listener),
  }
}
export type UseCases = ReturnType<typeof bindUseCases>

export interface CoreOptions {
  /** The API timeout; the §9 default is 25 s. */
  readonly apiTimeoutMs?: number
  /** A call found the backend under maintenance (the app shows its maintenance page). */
  readonly onUnderMaintenance?: () => void
}

/** The core composed over a front end's adapters: the ports, the API client and the use cases. */
export const composeCore = (ports: PortBindings, options: CoreOptions = {}): Container => {
  const c = new Container({ defaultScope: 'Singleton' })
  c.bind(TOKENS.http).toConstantValue(ports.http)
  c.bind(TOKENS.sockets).toConstantValue(ports.sockets)
  c.bind(TOKENS.session).toConstantValue(ports.session)
  c.bind(TOKENS.storage).toConstantValue(ports.storage)
  c.bind(TOKENS.clock).toConstantValue(ports.clock)
  c.bind(TOKENS.platform).toConstantValue(ports.platform)
  c.bind(TOKENS.wallet).toConstantValue(ports.wallet)
  c.bind(TOKENS.chain).toConstantValue(ports.chain)
  c.bind(TOKENS.toasts).toDynamicValue(() => new ToastQueue())
  if (ports.notifier) c.bind(TOKENS.notifier).toConstantValue(ports.notifier)
  else c.bind(TOKENS.notifier).toDynamicValue((ctx) => resolver(ctx).get(TOKENS.toasts))
  c.bind(TOKENS.api).toDynamicValue((ctx) => {
    const r = resolver(ctx)
    return makeHttpAxiomApi({
      http: r.get(TOKENS.http),
      session: r.get(TOKENS.session),
      notifier: r.get(TOKENS.notifier),
      platform: r.get(TOKENS.platform),
      ...(options.apiTimeoutMs ? { timeoutMs: options.apiTimeoutMs } : {}),
      ...(options.onUnderMaintenance ? { onUnderMaintenance: options.onUnderMaintenance } : {}),
    })
  })
  c.bind(TOKENS.useCases).toDynamicValue((ctx) => {
    const r = resolver(ctx)
    return bindUseCases({
      api: r.get(TOKENS.api),
      clock: r.get(TOKENS.clock),
      storage: r.get(TOKENS.storage),
      platform: r.get(TOKENS.platform),
      session: r.get(TOKENS.session),
      notifier: r.get(TOKENS.notifier),
      wallet: r.get(TOKENS.wallet),
      chain: r.get(TOKENS.chain),
    })
  })
  return c
}

/** The mini app: the core plus its MobX states, ready for the React tree. */
export const composeApp = (ports: PortBindings, config: AppConfig): AppState => {
  // The API client is built before the states: a call that meets maintenance reaches the page through this.
  let maintenance: MaintenanceState | null = null
  const c = composeCore(ports, { onUnderMaintenance: () => maintenance?.enter() })
  c.bind(TOKENS.app).toDynamicValue((context) => {
    const ctx = resolver(context)
    const uc = ctx.get(TOKENS.useCases)
    const platform = ctx.get(TOKENS.platform)
    const notifier = ctx.get(TOKENS.notifier)
    const session = ctx.get(TOKENS.session)
    const sockets = ctx.get(TOKENS.sockets)
    const api = ctx.get(TOKENS.api)
    const haptic = platform.haptic.bind(platform)
    const feedback = { notifier, platform }
    const ticker = new SecondTicker(ctx.get(TOKENS.clock))
    const sessionState = new SessionState(uc)
    const bonds = new BondsState(uc, ticker, notifier, haptic)
    const refreshBalances = () => void sessionState.refresh()
    let candleSocket: ReturnType<typeof openCandleSocket> | null = null
    return new AppState(
      {
        platform,
        clock: ctx.get(TOKENS.clock),
        config,
        openMainSocket: (onEvent, onStatus) =>
          openMainSocket({ sockets, session, refreshSession: () => Effect.runPromise(Effect.result(api.me())) }, onEvent, onStatus),
        openCandleSocket: (onCandle) => (candleSocket = openCandleSocket({ sockets }, onCandle)),
      },
      {
        session: sessionState,
        maintenance: (maintenance = new MaintenanceState({ checkMaintenance: uc.checkMaintenance, reload: () => platform.reload() })),
        bonds,
        farming: new FarmingState(uc, feedback, {
          expect: () => bonds.expectFarmingBond(),
          settle: (activated) => bonds.settleFarmingBond(activated),
        }),
        tasks: new TasksState(uc, feedback, refreshBalances),
        referrals: new ReferralsState({
          ...uc,
          copyText: (text) =>
            globalThis.navigator?.clipboard?.writeText(text).then(
              () => true,
              () => false,
            ) ?? Promise.resolve(false),
        }),
        market: new MarketState({ ...uc, switchLiveInterval: (i) => candleSocket?.switchInterval(i) }),
        history: new HistoryState(uc),
        sell: new SellState(uc, feedback, refreshBalances),
        toasts: ctx.get(TOKENS.toasts),
        ticker,
        wallet: new WalletState(uc, feedback),
        errors: new ErrorFeedback(feedback),
      },
    )
  })
  return resolver(c).get(TOKENS.app)
}
