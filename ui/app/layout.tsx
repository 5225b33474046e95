import { observer } from 'mobx-react-lite'
import { type ReactNode, Suspense, useEffect } from 'react'
import { BottomNav } from '../components/bottom-nav.tsx'
import { Spinner } from '../components/spinner.tsx'
import { Toasts } from '../components/toasts.tsx'
import { TopBar } from '../components/top-bar.tsx'
import { FarmingActivationModal } from '../features/farming/farming-activation-modal.tsx'
import { useT } from '../i18n/use-t.ts'
import { CommunityModal } from './community-modal.tsx'
import { useStates } from './contexts.ts'
import { markFirstScreenPainted } from './first-paint.ts'
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
function ScreenPainted() {
  useEffect(markFirstScreenPainted, [])
  return null
}

const CommunityGate = observer(function CommunityGate() {
  const { session } = useStates()
  return <CommunityModal open={session.mustJoinCommunity} />
})

/** The frame of every route: the top bar, the screen, the tabs, toasts and the app-wide modals. */
export function Layout({ children }: { readonly children: ReactNode }) {
  useBackButton()
  useScrollToTop()
  return (
    <div className="app-shell">
      <TopBar />
      <main className="screen" id="main">
        <Suspense fallback={<ScreenFallback />}>
          {children}
          <ScreenPainted />
        </Suspense>
      </main>
      <BottomNav />
      <FarmingActivationModal />
      <CommunityGate />
    </div>
  )
}
