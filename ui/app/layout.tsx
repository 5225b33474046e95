import { observer } from 'mobx-react-lite'
import { lazy, type ReactNode, Suspense, useEffect, useRef } from 'react'
import { BottomNav } from './bottom-nav.tsx'
import { Spinner } from '../components/spinner.tsx'
import { Toasts } from './toasts.tsx'
import { TopBar } from './top-bar.tsx'
import { withScreenTexts } from '../i18n/catalogues.ts'
import { useT } from '../i18n/use-t.ts'
import { useLaterScreenStates, useSessionState } from '../features/app-states.ts'
import { firstScreenPainted, markFirstScreenMounted } from '../lib/first-paint.ts'
import { usePathname } from '../hooks/navigation.ts'
import { useBackButton, useScrollToTop } from './use-back-button.ts'
import '../styles/layout.css'

function ScreenFallback() {
  const t = useT()
  return (
    <div className="screen-fallback" data-testid="screen-loading">
      <Spinner size={28} label={t('common.loading')} />
    </div>
  )
}

/** Mounts with the routed screen (after its lazy chunk resolved), never with the fallback. */
function ScreenMounted() {
  useEffect(markFirstScreenMounted, [])
  return null
}

const LazyFarmingActivationModal = lazy(() =>
  withScreenTexts(import('../features/farming/farming-activation-modal.tsx')).then((m) => ({ default: m.FarmingActivationModal })),
)

/**
 * A farm code's outcome (spec §4): its sheet's code and texts load with the first outcome, not
 * before the first paint (most openings have no farm code), and it stays mounted after that.
 */
const FarmingActivation = observer(function FarmingActivation() {
  // The farming view model is made after the first paint (with the other screens'); no outcome before it.
  const farming = useLaterScreenStates().current?.farming
  const wanted = useRef(false)
  if (farming && farming.activation !== null) wanted.current = true
  return wanted.current ? (
    <Suspense fallback={null}>
      <LazyFarmingActivationModal />
    </Suspense>
  ) : null
})

const LazyCommunityModal = lazy(() => import('./community-modal.tsx').then((m) => ({ default: m.CommunityModal })))

/**
 * The community gate (spec §2, §5): its sheet's code (and the modal's, which no screen's first
 * paint needs) loads when the gate is first asked for, and it stays mounted after that.
 */
const CommunityGate = observer(function CommunityGate() {
  const session = useSessionState()
  const wanted = useRef(false)
  if (session.mustJoinCommunity) wanted.current = true
  return wanted.current ? (
    <Suspense fallback={null}>
      <LazyCommunityModal open={session.mustJoinCommunity} />
    </Suspense>
  ) : null
})

/**
 * The platform features' parts (ui/features/platform: the fullscreen toggle, the insets and reduced
 * effects on the page, the home-screen offer) load once the first screen has painted, as the
 * features themselves do (composition-root.ts): neither is in the entry. Their texts (the other
 * screens' chunk) are asked for after that paint too, not when the shell first renders.
 */
const platformParts = () => firstScreenPainted().then(() => withScreenTexts(import('../features/platform/platform-layer.tsx')))
const LazyFullscreenToggle = lazy(() => platformParts().then((m) => ({ default: m.FullscreenToggle })))
const LazyPlatformLayer = lazy(() => platformParts().then((m) => ({ default: m.PlatformLayer })))
const LazyHomeScreenOffer = lazy(() => platformParts().then((m) => ({ default: m.HomeScreenOfferSlot })))

/**
 * Whether the user has moved from the screen the app opened on. Screens slide in when the user
 * goes to one; the first one replaces the loader as it is, without fading in from transparent (its
 * content counts as painted only once the fade has ended).
 */
const useHasNavigated = (): boolean => {
  const pathname = usePathname()
  const opened = useRef(pathname)
  const navigated = useRef(false)
  if (pathname !== opened.current) navigated.current = true
  return navigated.current
}

/** The frame of every route: the top bar, the screen, the tabs, toasts and the app-wide modals. */
export function Layout({ children }: { readonly children: ReactNode }) {
  useBackButton()
  useScrollToTop()
  const navigated = useHasNavigated()
  const t = useT()
  return (
    <div className="app-shell">
      <TopBar
        end={
          <Suspense fallback={null}>
            <LazyFullscreenToggle t={t} />
          </Suspense>
        }
      />
      <main className={navigated ? 'screen screen--entering' : 'screen'} id="main">
        <Suspense fallback={<ScreenFallback />}>
          {children}
          <ScreenMounted />
        </Suspense>
        <Suspense fallback={null}>
          <LazyHomeScreenOffer t={t} />
        </Suspense>
      </main>
      <BottomNav />
      <FarmingActivation />
      <CommunityGate />
      <Suspense fallback={null}>
        <LazyPlatformLayer t={t} />
      </Suspense>
    </div>
  )
}
