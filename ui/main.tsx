/**
 * The browser entry: the one ui/ file that meets the adapters, to hand them to the composition root.
 * Everything else in ui/ sees only the view models.
 */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { browserPorts } from '../adapters/browser/browser-ports.ts'
import { composeApp } from '../composition-root.ts'
import { AppRoot } from './app/app-root.tsx'
import { preloadDashboard } from './app/routes.tsx'
import { firstScreenPainted } from './app/first-paint.ts'
import { BackButtonContext, LanguageContext, LinkOpenerContext, UiConfigContext, type UiConfig } from './app/contexts.ts'

const env = import.meta.env
const config: UiConfig = {
  botUsername: env.VITE_BOT_USERNAME || 'axiom_dev_bot',
  communityUrl: env.VITE_COMMUNITY_URL || 'https://t.me/axiom_community',
}

/** Absolute URL of a configured endpoint, which may be given relative to this page. */
const absolute = (url: string) => new URL(url, location.origin).toString().replace(/\/$/, '')

const ports = browserPorts({
  apiOrigin: env.VITE_API_ORIGIN || '',
  tonV4Endpoint: absolute(env.VITE_TON_V4_ENDPOINT || 'https://mainnet-v4.tonhubapi.com'),
  manifestUrl: absolute(env.VITE_MANIFEST_URL || '/tonconnect-manifest.json'),
  ...(env.VITE_TON_WALLETS_LIST ? { walletsListSource: absolute(env.VITE_TON_WALLETS_LIST) } : {}),
  // The wallet widget (restored at start-up) loads only once the first screen has painted.
  widgetGate: () => firstScreenPainted(),
})

const app = composeApp(ports, config)
const platform = ports.platform
const language = platform.launch()?.languageCode ?? 'en'

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <UiConfigContext.Provider value={config}>
      <LanguageContext.Provider value={language}>
        <BackButtonContext.Provider value={{ show: (onPress) => platform.showBackButton(onPress), hide: () => platform.hideBackButton() }}>
          <LinkOpenerContext.Provider value={(url) => platform.openLink(url)}>
            <AppRoot app={app} />
          </LinkOpenerContext.Provider>
        </BackButtonContext.Provider>
      </LanguageContext.Provider>
    </UiConfigContext.Provider>
  </StrictMode>,
)

if (location.pathname === '/') preloadDashboard()
void app.start(location.search)
