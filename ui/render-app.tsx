/** The second step of the browser boot: React renders the started app over the page's loader. */
import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { AppRoot } from './app/app-root.tsx'
import { LanguageContext } from './i18n/language-context.ts'
import { BackButtonContext, LinkOpenerContext, UiConfigContext } from './lib/host-contexts.ts'
import type { StartedApp } from './app/started-app.ts'
import { PlatformFeaturesContext } from './features/platform/platform-features-context.ts'

export const renderApp = ({ app, platform, config, platformFeatures }: StartedApp): void => {
  const language = platform.launch()?.languageCode ?? 'en'
  const root = createRoot(document.getElementById('root')!)
  // A transition, so the first render yields to the browser every few milliseconds: when sign-in
  // was quick, it is the whole dashboard, not the loader (which the page shows until it commits).
  startTransition(() =>
    root.render(
      <StrictMode>
        <UiConfigContext.Provider value={config}>
          <LanguageContext.Provider value={language}>
            <BackButtonContext.Provider value={{ show: (onPress) => platform.showBackButton(onPress), hide: () => platform.hideBackButton() }}>
              <LinkOpenerContext.Provider value={(url) => platform.openLink(url)}>
                <PlatformFeaturesContext.Provider value={platformFeatures ?? null}>
                  <AppRoot app={app} />
                </PlatformFeaturesContext.Provider>
              </LinkOpenerContext.Provider>
            </BackButtonContext.Provider>
          </LanguageContext.Provider>
        </UiConfigContext.Provider>
      </StrictMode>,
    ),
  )
}
