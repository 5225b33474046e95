import { PLATFORM_SHORT_LINK_HOST } from '../../core/index.ts'

/** The share link that opens the mini app with a farm code: `https://t.me/<bot>?startapp=farm_<code>`. */
export const farmingShareLink = (botUsername: string, code: string): string =>
  `https://${PLATFORM_SHORT_LINK_HOST}/${botUsername}?startapp=farm_${encodeURIComponent(code)}`

/** The same code as a start-page query: `<origin>/?farm_code=<code>`. */
export const farmingQueryLink = (origin: string, code: string): string => `${origin}/?farm_code=${encodeURIComponent(code)}`

/** The full-page (non-routed) address of the TON Connect manifest. */
export const TONCONNECT_MANIFEST_PATH = '/tonconnect-manifest.json'
