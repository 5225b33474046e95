/**
 * The security headers the mini app is served with, in one place: deploy/nginx.conf (production)
 * writes the `production` policy out literally (tests/deploy/security-headers.test.ts holds it equal
 * to this module's), and the app's own servers send it from here — vite preview (`local`: the browser
 * tests, the benches' comparison), vite's dev server (`dev`: `npm start`) and the benches' TLS front
 * (scripts/tls-front.ts, `local`).
 *
 * What the app needs (checked in Chromium by tests/e2e/content-security-policy.test.ts):
 * - scripts: its own files only. The built page has no inline script; the dev server's React Refresh
 *   preamble is one, so `dev` alone allows inline scripts. One inline handler is admitted, by its
 *   hash, and only as an attribute: the empty one (`ontouchstart=""`) TON Connect UI puts on <body>
 *   so that iOS Safari shows :active styles; it runs nothing.
 * - styles: its own files, and inline ones: TON Connect UI injects a <style> and React sets `style`
 *   attributes.
 * - connections: its API and sockets (the same origin, or VITE_API_ORIGIN), the TON v4 node it reads
 *   (VITE_TON_V4_ENDPOINT, mainnet-v4.tonhubapi.com by default), and TON Connect: the wallets list
 *   (config.ton.org) and each wallet's bridge (bridge.tonapi.io, connect.tonhubapi.com, walletbot.me,
 *   www.okx.com, … — whatever the list says at run time, so no fixed list can hold them): any https
 *   and wss origin. Plain http only locally.
 * - images: wallet icons from the list (any https), and data: URLs.
 * - framing: Telegram Web (web.telegram.org: its K and A clients are paths of it) hosts mini apps in
 *   an iframe; Telegram's phone and desktop apps open them in a web view, which frame-ancestors does
 *   not concern. Locally, the Telegram host emulator on 127.0.0.1 or localhost at any port.
 */

export type CspMode = 'production' | 'local' | 'dev'

/** The origins that may frame the app in production: Telegram Web. */
export const TELEGRAM_WEB_ORIGINS = ['https://web.telegram.org'] as const

/** The hash of an empty script: the only inline event handler the app's page may carry. */
const EMPTY_HANDLER = "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"

const LOCAL_HTTP = ['http://127.0.0.1:*', 'http://localhost:*']
const LOCAL_WS = ['ws://127.0.0.1:*', 'ws://localhost:*']

/** The policy's directives, in the order they are written. */
export const cspDirectives = (mode: CspMode): ReadonlyArray<readonly [string, ReadonlyArray<string>]> => {
  const local = mode !== 'production'
  return [
    ['default-src', ["'self'"]],
    ['script-src', mode === 'dev' ? ["'self'", "'unsafe-inline'"] : ["'self'"]],
    ['script-src-attr', mode === 'dev' ? ["'unsafe-inline'"] : ["'unsafe-hashes'", EMPTY_HANDLER]],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:', 'blob:', 'https:', ...(local ? LOCAL_HTTP : [])]],
    ['font-src', ["'self'", 'data:']],
    ['connect-src', ["'self'", 'https:', 'wss:', ...(local ? [...LOCAL_HTTP, ...LOCAL_WS] : [])]],
    ['frame-ancestors', local ? ["'self'", ...TELEGRAM_WEB_ORIGINS, ...LOCAL_HTTP] : [...TELEGRAM_WEB_ORIGINS]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
  ]
}

/** The Content-Security-Policy header's value. */
export const contentSecurityPolicy = (mode: CspMode): string => cspDirectives(mode).map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ')

/** A year, the value HSTS preload lists ask for; subdomains are the operator's to decide. */
export const HSTS = 'max-age=31536000'

/**
 * Every security header of a response. HSTS only where the app is served over TLS (a browser
 * ignores it over plain http, and on 127.0.0.1 it would pin the address to https for a year).
 */
export const securityHeaders = (o: { readonly mode: CspMode; readonly tls: boolean }): Record<string, string> => ({
  'Content-Security-Policy': contentSecurityPolicy(o.mode),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  ...(o.tls ? { 'Strict-Transport-Security': HSTS } : {}),
})
