import { observer } from 'mobx-react-lite'
import { reaction } from 'mobx'
import { startTransition, useEffect, useState } from 'react'
import { Router as WouterRouter } from 'wouter'
import { Toasts } from './toasts.tsx'
import { MaintenanceScreen } from '../features/maintenance/maintenance-screen.tsx'
import { directionOf, useLanguage } from '../i18n/use-t.ts'
import type { AppState } from './app-state.ts'
import { AppStatesContext } from '../features/app-states.ts'
import { FailedScreen } from './failed-screen.tsx'
import { LoaderScreen } from './loader-screen.tsx'
import { OutsidePlatformScreen } from './outside-platform-screen.tsx'
import { useAppLocation } from '../hooks/navigation.ts'
import { AppRoutes } from './routes.tsx'

/** The routes on the browser's history, with the app's own navigation (ui/hooks/navigation.ts). */
function Router() {
  return (
    <WouterRouter hook={useAppLocation}>
      <AppRoutes />
    </WouterRouter>
  )
}

/**
 * The app's phase as React state, changed in a transition: the first render of the routed app
 * (layout, dashboard, lists) then yields to the browser every few milliseconds instead of holding
 * the main thread in one long task.
 */
const usePhase = (app: AppState): AppState['phase'] => {
  const [phase, setPhase] = useState(app.phase)
  useEffect(() => reaction(() => app.phase, (next) => startTransition(() => setPhase(next)), { fireImmediately: true }), [app])
  return phase
}

/** The full-screen states (spec §2) around the routed app. */
const Phase = observer(function Phase({ app }: { readonly app: AppState }) {
  const phase = usePhase(app)
  if (phase === 'maintenance' || app.s.maintenance.underMaintenance) return <MaintenanceScreen />
  switch (phase) {
    case 'loading':
      // A returning user's last dashboard, kept on the device (ui/state/first-figures.ts), shows before
      // sign-in: seen, not touched, until the app is ready. The same tree then takes input, unmounted nothing.
      return app.s.kept?.shown ? <RoutedApp inert /> : <LoaderScreen />
    case 'failed':
      return <FailedScreen />
    case 'outside-platform':
      return <OutsidePlatformScreen />
    case 'ready':
      return <RoutedApp inert={false} />
  }
})

/** The routed app, taking no input (`inert`: no tap, focus or key reaches it) while it shows the kept dashboard before sign-in. */
function RoutedApp({ inert }: { readonly inert: boolean }) {
  return (
    <div className="routed-app" inert={inert} data-testid={inert ? 'app-kept' : undefined}>
      <Router />
    </div>
  )
}

/**
 * The whole app. The entry renders `<AppRoot app={app} />` (inside the optional providers:
 * UiConfigContext, BackButtonContext, LinkOpenerContext, LanguageContext) and calls `app.start(location.search)`.
 */
export function AppRoot({ app }: { readonly app: AppState }) {
  const language = useLanguage()
  useEffect(() => {
    document.documentElement.lang = language
    // Farsi is written right to left: the page mirrors (the styles use logical properties).
    document.documentElement.dir = directionOf(language)
  }, [language])
  return (
    <AppStatesContext.Provider value={app.s}>
      <Phase app={app} />
      <Toasts />
    </AppStatesContext.Provider>
  )
}
