/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_API_ORIGIN?: string
  readonly VITE_BOT_USERNAME?: string
  readonly VITE_APP_SHORT_NAME?: string
  readonly VITE_COMMUNITY_URL?: string
  readonly VITE_TON_V4_ENDPOINT?: string
  readonly VITE_MANIFEST_URL?: string
  readonly VITE_TON_WALLETS_LIST?: string
  readonly VITE_TON_NETWORK?: string
  /** A wallet transaction's validity in seconds (default 60, spec §5); the browser tests of the wallet's round trip set it shorter. */
  readonly VITE_TON_TX_VALIDITY_SECONDS?: string
}
