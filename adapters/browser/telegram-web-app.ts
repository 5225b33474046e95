import type { TelegramWebApp } from './telegram-platform.ts'

const isWebApp = (value: unknown): value is TelegramWebApp =>
  typeof value === 'object' && value !== null && typeof (value as { ready?: unknown }).ready === 'function'

/**
 * Telegram's WebApp object from @twa-dev/sdk, downloaded on demand (the entry reads the launch
 * parameters from the URL itself, adapters/browser/launch-params.ts). The package is CommonJS with
 * an `exports.default`, and bundlers disagree on how many `default`s wrap it (a plain default
 * import fails in the browser), so unwrap until the object itself shows up; the SDK also leaves it
 * on window.Telegram.
 */
export const loadTelegramWebApp = async (): Promise<TelegramWebApp> => {
  let candidate: unknown = await import('@twa-dev/sdk')
  for (let depth = 0; depth < 3 && !isWebApp(candidate); depth++) {
    candidate = (candidate as { default?: unknown } | null)?.default
  }
  if (isWebApp(candidate)) return candidate
  const fromWindow = (globalThis as { Telegram?: { WebApp?: unknown } }).Telegram?.WebApp
  if (isWebApp(fromWindow)) return fromWindow
  throw new Error('@twa-dev/sdk did not provide Telegram.WebApp')
}

/** Fails to compile if the SDK's WebApp stops fitting the binding the platform relies on. */
type Fits<T extends TelegramWebApp> = T
export type SdkWebApp = Fits<typeof import('@twa-dev/sdk').default>
