import { Effect } from 'effect'
import { NetworkError } from '../../core/errors.ts'
import type { ChainReader } from '../../core/ports/chain-reader.port.ts'
import type { PortBindings } from '../../core/index.ts'
import { FetchHttpTransport, type PrefetchedAnswers } from '../shared/fetch-http-transport.ts'
import { SystemClock } from '../shared/system-clock.ts'
import { NavigatorClipboard } from './navigator-clipboard.ts'
import { LazyWallet } from '../ton/lazy-wallet.ts'
import { CookieSessionStore } from './cookie-session-store.ts'
import { LocalStorageKeyValueStore } from './local-storage-key-value-store.ts'
import { DeferredWebApp } from './deferred-web-app.ts'
import { type LaunchParams, pageLaunchParams } from './launch-params.ts'
import { TelegramPlatform } from './telegram-platform.ts'
import { loadTelegramWebApp } from './telegram-web-app.ts'
import { WebSocketFactory } from './websocket-factory.ts'

export interface BrowserEnv {
  /** Where the product API lives; '' is this page's origin (the dev server proxies /api). */
  readonly apiOrigin: string
  /** The TON node's v4 API for wallet balances. */
  readonly tonV4Endpoint: string
  readonly manifestUrl: string
  /** A wallets list to use instead of the public one (the local dev wallet's, offline). */
  readonly walletsListSource?: string
  /** The network a wallet must connect on: TON Connect's chain id, mainnet ('-239') by default. */
  readonly tonNetwork?: string
  /** The mini app's t.me direct link, where a wallet mini app returns the user (TON Connect's `twaReturnUrl`). */
  readonly twaReturnUrl?: `${string}://${string}`
  /**
   * Resolves when the wallet widget may start loading; the entry passes "the first screen has
   * painted", so the widget's ~120 KiB gz never delays the dashboard. Default: at once.
   */
  readonly widgetGate?: () => Promise<void>
  /** The launch parameters the entry read from the URL (default: read them now). */
  readonly launch?: LaunchParams
  /** Answers the entry started before the core loaded (adapters/browser/early-requests.ts). */
  readonly prefetched?: PrefetchedAnswers
  /**
   * Resolves when @twa-dev/sdk may download; the entry passes "the first screen has painted". Until
   * it has loaded, platform calls are kept and replayed (adapters/browser/deferred-web-app.ts).
   * Default: at once.
   */
  readonly sdkGate?: () => Promise<void>
  /**
   * Resolves in a later task: the SDK's evaluation (about 50 ms on a slow phone) and the replay of the
   * calls kept until then go in two tasks rather than one. Default: at once.
   */
  readonly yieldTask?: () => Promise<void>
}

/** Telegram's WebApp from the launch parameters now, and from @twa-dev/sdk once `gate` opens and it has loaded. */
const telegramWebApp = (launch: LaunchParams, gate: () => Promise<void>, yieldTask?: () => Promise<void>): DeferredWebApp => {
  const webApp = new DeferredWebApp(launch)
  gate()
    .then(loadTelegramWebApp)
    .then(
      async (sdk) => {
        await yieldTask?.()
        webApp.attach(sdk)
      },
      (error: unknown) => console.error('AXIOM could not load the Telegram SDK', error),
    )
  return webApp
}

/**
 * The chain reader (a wallet's balance, read by the Bond form) is a chunk of its own, loaded on the
 * first read: no first paint reads the chain. A load that fails fails the read (a network error) and
 * is tried again on the next one.
 */
const chainReader = (endpoint: string): ChainReader => {
  let reader: Promise<ChainReader> | undefined
  const load = () =>
    (reader ??= import('../ton/v4-api-chain-reader.ts').then(
      (m) => new m.V4ApiChainReader(endpoint),
      (cause: unknown) => {
        reader = undefined
        throw cause
      },
    ))
  return { balance: (address) => Effect.tryPromise({ try: load, catch: (cause) => new NetworkError({ cause }) }).pipe(Effect.flatMap((r) => r.balance(address))) }
}

/** The browser's adapters for every port. The wallet widget and the chain client load on first use. */
export const browserPorts = (env: BrowserEnv): PortBindings => {
  const platform = new TelegramPlatform(telegramWebApp(env.launch ?? pageLaunchParams(), env.sdkGate ?? (() => Promise.resolve()), env.yieldTask))
  // The wallet widget speaks the app's language: Russian for Russian-speaking users, else English.
  const language = /^ru/i.test(platform.launch()?.languageCode ?? '') ? 'ru' : 'en'
  return {
    http: new FetchHttpTransport({ origin: env.apiOrigin, ...(env.prefetched ? { prefetched: env.prefetched } : {}) }),
    sockets: new WebSocketFactory(env.apiOrigin ? { origin: env.apiOrigin } : {}),
    session: new CookieSessionStore(),
    storage: new LocalStorageKeyValueStore(),
    clock: new SystemClock(),
    platform,
    // The TON Connect adapter is a chunk of its own, loaded once the first screen has painted (or on
    // the first call that needs it); the widget and the payloads it builds load on top of it.
    wallet: new LazyWallet({
      gate: env.widgetGate ?? (() => Promise.resolve()),
      load: () =>
        import('../ton/browser-ton-connect-wallet.ts').then((m) => m.browserTonConnectWallet({ ...env, language })),
    }),
    chain: chainReader(env.tonV4Endpoint),
    clipboard: new NavigatorClipboard(),
  }
}
