import { lazy, Suspense } from 'react'
import { Link } from 'wouter'
import { firstScreenPainted } from '../../lib/first-paint.ts'
import { HistoryIcon, RebondIcon, SellIcon } from '../../components/icons.tsx'
import { withScreenTexts } from '../../i18n/catalogues.ts'
import { useT } from '../../i18n/use-t.ts'
import { nextTask } from '../../lib/next-task.ts'
import { PriceCard } from '../market/price-card.tsx'
import { BalanceCards } from './balance-cards.tsx'

/**
 * The stats card and the bonds list load and render once the balances and the price have painted:
 * their code is not in the JS before the first paint, and the first commit, its layout and its
 * paint carry only what the user reads first. They appear below it, so nothing on screen moves;
 * later visits of the dashboard render them at once.
 */
const DashboardBelowFold = lazy(() =>
  firstScreenPainted()
    .then(nextTask)
    .then(() => withScreenTexts(import('./dashboard-below-fold.tsx')))
    .then((m) => ({ default: m.DashboardBelowFold })),
)

const QUICK_ACTIONS = [
  { to: '/re-bonding', testId: 'link-rebond', Icon: RebondIcon, label: 'dashboard.rebond' },
  { to: '/sell', testId: 'link-sell', Icon: SellIcon, label: 'dashboard.sell' },
  { to: '/history', testId: 'link-history', Icon: HistoryIcon, label: 'dashboard.history' },
] as const

function QuickActions() {
  const t = useT()
  return (
    <div className="quick-actions">
      {QUICK_ACTIONS.map(({ to, testId, Icon, label }) => (
        <Link key={to} to={to} className="quick-action" data-testid={testId}>
          <span className="quick-action__icon">
            <Icon size={20} />
          </span>
          {t(label)}
        </Link>
      ))}
    </div>
  )
}

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
      <Suspense fallback={null}>
        <DashboardBelowFold />
      </Suspense>
    </div>
  )
}
