import type { PortBindings } from '../../core/index.ts'
import { FetchHttpTransport } from '../shared/fetch-http-transport.ts'
import { SystemClock } from '../shared/system-clock.ts'
import { NavigatorClipboard } from './navigator-clipboard.ts'
import { loadTonPayloads } from '../ton/load-ton-modules.ts'
import { V4ApiChainReader } from '../ton/v4-api-chain-reader.ts'
import { pinnedTonConnectUi, TON_CONNECT_CONNECTION_KEY, TonConnectWallet, tonConnectUiOptions } from '../ton/ton-connect-wallet.ts'
import { CookieSessionStore } from './cookie-session-store.ts'
import { LocalStorageKeyValueStore } from './local-storage-key-value-store.ts'
import { TelegramPlatform } from './telegram-platform.ts'
import { telegramWebApp } from './telegram-web-app.ts'
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
}

/** The browser's adapters for every port. The wallet widget and the chain client load on first use. */
export const browserPorts = (env: BrowserEnv): PortBindings => {
  const platform = new TelegramPlatform(telegramWebApp)
  // The wallet widget speaks the app's language: Russian for Russian-speaking users, else English.
  const language = /^ru/i.test(platform.launch()?.languageCode ?? '') ? 'ru' : 'en'
  return {
    http: new FetchHttpTransport({ origin: env.apiOrigin }),
    sockets: new WebSocketFactory(env.apiOrigin ? { origin: env.apiOrigin } : {}),
    session: new CookieSessionStore(),
    storage: new LocalStorageKeyValueStore(),
    clock: new SystemClock(),
    platform,
    wallet: new TonConnectWallet({
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
      // @ton/core is read with the widget (restoring reads the account), so it waits for the same gate.
      // A first visit (nothing stored) loads the widget on the first connect or purchase, not at start-up.
      hasStoredConnection: () => {
        try {
          return localStorage.getItem(TON_CONNECT_CONNECTION_KEY) !== null
        } catch {
          return true
        }
      },
      tonCore: async () => {
        await env.widgetGate?.()
        return loadTonPayloads()
      },
    }),
    chain: new V4ApiChainReader(env.tonV4Endpoint),
    clipboard: new NavigatorClipboard(),
  }
}
