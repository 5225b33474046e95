/** The same code as a start-page query: `<origin>/?farm_code=<code>`. */
export const farmingQueryLink = (origin: string, code: string): string => `${origin}/?farm_code=${encodeURIComponent(code)}`

/** The full-page (non-routed) address of the TON Connect manifest. */
export const TONCONNECT_MANIFEST_PATH = '/tonconnect-manifest.json'
