/**
 * The first step of the browser boot: the ui/ file that meets the adapters, to hand them to the
 * composition root (the entry only starts the early requests). It builds the app over what the
 * entry already has (the launch parameters, the maintenance check and /user/me on their way), and
 * `start()` starts it (the maintenance check, then sign-in); React is not needed for that and is
 * evaluated by the second step while the requests are out.
 */
import { browserPorts } from '../adapters/browser/browser-ports.ts'
import type { EarlyBoot } from '../adapters/browser/early-boot.ts'
import { composeStepwise } from '../composition-root.ts'
import { miniAppLink, type Platform } from '../core/index.ts'
import { loadDashboard } from './app/dashboard-loader.ts'
import { firstScreenPainted, firstScreenWithData } from './app/first-paint.ts'
import type { UiConfig } from './app/contexts.ts'
import { nextTask } from './lib/next-task.ts'
import type { AppState } from './state/app-state.ts'

export interface StartedApp {
  readonly app: AppState
  readonly platform: Platform
  readonly config: UiConfig
}

export interface ComposedApp extends StartedApp {
  /** Starts fetching the dashboard (the page the app opens on) and starts the app. */
  start(): StartedApp
}

/** Builds the app over several tasks (see `composeStepwise`). */
export const composeBrowserApp = async (early: EarlyBoot): Promise<ComposedApp> => {
  const env = import.meta.env
  const config: UiConfig = {
    botUsername: env.VITE_BOT_USERNAME || 'axiom_dev_bot',
    appShortName: env.VITE_APP_SHORT_NAME || 'app',
    communityUrl: env.VITE_COMMUNITY_URL || 'https://t.me/axiom_community',
  }
  /** Absolute URL of a configured endpoint, which may be given relative to this page. */
  let endStart = () => undefined as void
  const startEnded = new Promise<void>((resolve) => (endStart = resolve))
  const absolute = (url: string) => new URL(url, location.origin).toString().replace(/\/$/, '')

  const ports = browserPorts({
    apiOrigin: env.VITE_API_ORIGIN || '',
    tonV4Endpoint: absolute(env.VITE_TON_V4_ENDPOINT || 'https://mainnet-v4.tonhubapi.com'),
    manifestUrl: absolute(env.VITE_MANIFEST_URL || '/tonconnect-manifest.json'),
    ...(env.VITE_TON_WALLETS_LIST ? { walletsListSource: absolute(env.VITE_TON_WALLETS_LIST) } : {}),
    ...(env.VITE_TON_NETWORK ? { tonNetwork: env.VITE_TON_NETWORK } : {}),
    twaReturnUrl: miniAppLink(config) as `https://${string}`,
    // The wallet widget (restored at start-up) loads only once the first screen has painted.
    widgetGate: () => firstScreenPainted(),
    launch: early.launch,
    prefetched: early.answers,
    // So does the Telegram SDK, or as soon as the start ended on a full screen (maintenance, failed).
    sdkGate: () => Promise.race([firstScreenPainted(), startEnded]),
  })
  const app = await composeStepwise(ports, config, { yieldTask: nextTask, firstScreen: firstScreenWithData })
  const started: StartedApp = { app, platform: ports.platform, config }
  return {
    ...started,
    start: () => {
      if (location.pathname === '/') void loadDashboard()
      app.start(location.search).then((phase) => phase !== 'ready' && endStart(), endStart)
      return started
    },
  }
}
