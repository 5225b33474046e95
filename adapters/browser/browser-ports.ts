import type { PortBindings } from '../../core/index.ts'
import { FetchHttpTransport, type PrefetchedAnswers } from '../shared/fetch-http-transport.ts'
import { SystemClock } from '../shared/system-clock.ts'
import { NavigatorClipboard } from './navigator-clipboard.ts'
import { loadTonPayloads } from '../ton/load-ton-modules.ts'
import { V4ApiChainReader } from '../ton/v4-api-chain-reader.ts'
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
}

/** Telegram's WebApp from the launch parameters now, and from @twa-dev/sdk once `gate` opens and it has loaded. */
const telegramWebApp = (launch: LaunchParams, gate: () => Promise<void>): DeferredWebApp => {
  const webApp = new DeferredWebApp(launch)
  gate()
    .then(loadTelegramWebApp)
    .then(
      (sdk) => webApp.attach(sdk),
      (error: unknown) => console.error('AXIOM could not load the Telegram SDK', error),
    )
  return webApp
}

/** The browser's adapters for every port. The wallet widget and the chain client load on first use. */
export const browserPorts = (env: BrowserEnv): PortBindings => {
  const platform = new TelegramPlatform(telegramWebApp(env.launch ?? pageLaunchParams(), env.sdkGate ?? (() => Promise.resolve())))
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
        import('../ton/ton-connect-wallet.ts').then(
          ({ pinnedTonConnectUi, storedConnectionIn, TON_CONNECT_CONNECTION_KEY, TonConnectWallet, tonConnectUiOptions }) =>
            new TonConnectWallet({
              create: async () => {
                await env.widgetGate?.()
                const { TonConnect, TonConnectUI } = await import('@tonconnect/ui')
                const connector = env.walletsListSource
                  ? new TonConnect({ manifestUrl: env.manifestUrl, walletsListSource: env.walletsListSource, analytics: { mode: 'off' } as never })
                  : undefined
                const options = tonConnectUiOptions({
                  manifestUrl: env.manifestUrl,
                  language,
                  ...(env.twaReturnUrl ? { twaReturnUrl: env.twaReturnUrl } : {}),
                  ...(connector ? { connector } : {}),
                })
                return pinnedTonConnectUi((o) => new TonConnectUI(o), options, env.tonNetwork)
              },
              // Read when the adapter is made: nothing writes it before then (the widget comes later still).
              // A first visit (nothing stored) loads the widget on the first connect or purchase, not at start-up.
              storedConnection: () => {
                try {
                  return storedConnectionIn(localStorage.getItem(TON_CONNECT_CONNECTION_KEY))
                } catch {
                  return 'established'
                }
              },
              // The payloads are read with the widget (restoring reads the account), so they wait for the same gate.
              tonCore: async () => {
                await env.widgetGate?.()
                return loadTonPayloads()
              },
            }),
        ),
    }),
    chain: new V4ApiChainReader(env.tonV4Endpoint),
    clipboard: new NavigatorClipboard(),
  }
}
