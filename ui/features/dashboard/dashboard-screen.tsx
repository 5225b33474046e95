import { observer } from 'mobx-react-lite'
import { lazy, startTransition, Suspense, useEffect, useState } from 'react'
import { Link } from 'wouter'
import { useFirstFiguresStates } from '../app-states.ts'
import { keptFigures } from '../../state/first-figures.ts'
import { firstScreenPainted } from '../../lib/first-paint.ts'
import { HistoryIcon, RebondIcon, SellIcon } from '../../components/icons.tsx'
import { withScreenTexts } from '../../i18n/catalogues.ts'
import { useT } from '../../i18n/use-t.ts'
import { PriceCard } from '../market/price-card.tsx'
import { BalanceCards } from './balance-cards.tsx'

/**
 * The stats card and the bonds list load and render once the balances and the price have painted:
 * their code is not in the JS before the first paint, and the first commit, its layout and its
 * paint carry only what the user reads first. They appear below it, so nothing on screen moves;
 * later visits of the dashboard render them at once.
 */
let belowFoldCode: Promise<typeof import('./dashboard-below-fold.tsx')> | null = null
const loadBelowFold = () =>
  (belowFoldCode ??= firstScreenPainted().then(() => withScreenTexts(import('./dashboard-below-fold.tsx'))))
const DashboardBelowFold = lazy(() => loadBelowFold().then((m) => ({ default: m.DashboardBelowFold })))

/**
 * The fresh stats and bonds, mounted in a transition once their code is here: React then renders
 * them in slices of a few milliseconds between the browser's other work, where a mount on the
 * code's arrival was one long task (120–190 ms at 4× CPU for a dozen bonds; docs/benchmarks.md).
 */
function FreshBelowFold() {
  const [mounted, setMounted] = useState(false)
  useEffect(() => {
    let on = true
    loadBelowFold().then(
      () => on && startTransition(() => setMounted(true)),
      // Its code did not come: the lazy part below shows the screen's usual failure.
      () => on && setMounted(true),
    )
    return () => void (on = false)
  }, [])
  return mounted ? <DashboardBelowFold /> : null
}

/** The kept dashboard's bonds (kept-bonds.tsx): their code loads only when one is on show. */
const KeptBonds = lazy(() => withScreenTexts(import('./kept-bonds.tsx')).then((m) => ({ default: m.KeptBonds })))

const QUICK_ACTIONS = [
  { to: '/re-bonding', testId: 'link-rebond', Icon: RebondIcon, label: 'dashboard.rebond' },
  { to: '/sell', testId: 'link-sell', Icon: SellIcon, label: 'dashboard.sell' },
  { to: '/history', testId: 'link-history', Icon: HistoryIcon, label: 'dashboard.history' },
] as const

/** The ways to the money screens; while the kept dashboard is on show they wait for the fresh figures, disabled. */
const QuickActions = observer(function QuickActions() {
  const t = useT()
  const waiting = keptFigures(useFirstFiguresStates()) !== null
  return (
    <div className="quick-actions">
      {QUICK_ACTIONS.map(({ to, testId, Icon, label }) => {
        const inside = (
          <>
            <span className="quick-action__icon">
              <Icon size={20} />
            </span>
            {t(label)}
          </>
        )
        return waiting ? (
          <span key={to} className="quick-action" data-testid={testId} role="link" aria-disabled="true">
            {inside}
          </span>
        ) : (
          <Link key={to} to={to} className="quick-action" data-testid={testId}>
            {inside}
          </Link>
        )
      })}
    </div>
  )
})

/** Under the price: the kept dashboard's bonds while it is on show, else the stats card and the fresh list. */
const BelowFold = observer(function BelowFold() {
  const kept = keptFigures(useFirstFiguresStates())
  return (
    <Suspense fallback={null}>{kept ? <KeptBonds mints={kept.mints} /> : <FreshBelowFold />}</Suspense>
  )
})

/**
 * The dashboard (route '/'): balances, today's earnings, the price and chart, the platform's stats, and
 * the bonds (the last two once the first screen has painted). Its heading is for screen readers (the
 * page's one top-level heading, as on the other screens); the eye has the balances.
 */
export function DashboardScreen() {
  const t = useT()
  return (
    <div className="screen-stack" data-testid="screen-dashboard">
      <h1 className="visually-hidden">{t('nav.dashboard')}</h1>
      <BalanceCards />
      <QuickActions />
      <PriceCard />
      <BelowFold />
    </div>
  )
}
