/** The second step of the browser boot: React renders the started app over the page's loader. */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { AppRoot } from './app/app-root.tsx'
import { BackButtonContext, LanguageContext, LinkOpenerContext, UiConfigContext } from './app/contexts.ts'
import type { StartedApp } from './start-app.ts'

export const renderApp = ({ app, platform, config }: StartedApp): void => {
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
}
