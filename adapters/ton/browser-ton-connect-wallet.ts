import { loadTonPayloads } from './load-ton-modules.ts'
import {
  pinnedTonConnectUi,
  storedConnectionIn,
  TON_CONNECT_CONNECTION_KEY,
  TonConnectWallet,
  tonConnectUiOptions,
} from './ton-connect-wallet.ts'

export interface BrowserTonConnectOptions {
  readonly manifestUrl: string
  /** A wallets list to use instead of the public one (the local dev wallet's, offline). */
  readonly walletsListSource?: string
  /** The network a wallet must connect on: TON Connect's chain id, mainnet by default. */
  readonly tonNetwork?: string
  /** The mini app's t.me direct link, where a wallet mini app returns the user. */
  readonly twaReturnUrl?: `${string}://${string}`
  /** The widget speaks the app's language: Russian for Russian-speaking users, else English. */
  readonly language: 'en' | 'ru'
  /** Resolves when the widget (~120 KiB gz) may start loading: once the first screen has painted. */
  readonly widgetGate?: () => Promise<void>
}

/**
 * The browser's TON Connect wallet adapter, over the widget it loads on first use. This module, the
 * adapter and the TON payloads are one chunk, loaded after the first paint (adapters/ton/lazy-wallet.ts).
 */
export const browserTonConnectWallet = (o: BrowserTonConnectOptions): TonConnectWallet =>
  new TonConnectWallet({
    create: async () => {
      await o.widgetGate?.()
      const { TonConnect, TonConnectUI } = await import('@tonconnect/ui')
      const connector = o.walletsListSource
        ? new TonConnect({ manifestUrl: o.manifestUrl, walletsListSource: o.walletsListSource, analytics: { mode: 'off' } as never })
        : undefined
      const options = tonConnectUiOptions({
        manifestUrl: o.manifestUrl,
        language: o.language,
        ...(o.twaReturnUrl ? { twaReturnUrl: o.twaReturnUrl } : {}),
        ...(connector ? { connector } : {}),
      })
      return pinnedTonConnectUi((ui) => new TonConnectUI(ui), options, o.tonNetwork)
    },
    // Read when the adapter is made, after the first paint: nothing writes it before then (the widget
    // comes later still). A first visit (nothing stored) loads the widget on the first connect or
    // purchase, not at start-up.
    storedConnection: () => {
      try {
        return storedConnectionIn(localStorage.getItem(TON_CONNECT_CONNECTION_KEY))
      } catch {
        return 'established'
      }
    },
    // The payloads are read with the widget (restoring reads the account), so they wait for the same gate.
    tonCore: async () => {
      await o.widgetGate?.()
      return loadTonPayloads()
    },
  })
