/**
 * The browser entry: the one ui/ file that meets the adapters, to hand them to the composition root.
 * Everything else in ui/ sees only the view models.
 */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { browserPorts } from '../adapters/browser/browser-ports.ts'
import { composeApp } from '../composition-root.ts'
import { AppRoot } from './app/app-root.tsx'
import { BackButtonContext, LanguageContext, LinkOpenerContext, UiConfigContext, type UiConfig } from './app/contexts.ts'

const env = import.meta.env
const config: UiConfig = {
  botUsername: env.VITE_BOT_USERNAME || 'axiom_dev_bot',
  communityUrl: env.VITE_COMMUNITY_URL || 'https://t.me/axiom_community',
}

const ports = browserPorts({
  apiOrigin: env.VITE_API_ORIGIN || '',
  tonV4Endpoint: env.VITE_TON_V4_ENDPOINT || `${location.origin}/ton`,
  manifestUrl: env.VITE_MANIFEST_URL || `${location.origin}/tonconnect-manifest.json`,
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

void app.start(location.search)
