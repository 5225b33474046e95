import { Link } from 'wouter'
import { AfterFirstPaint } from '../../components/after-first-paint.tsx'
import { HistoryIcon, RebondIcon, SellIcon } from '../../components/icons.tsx'
import { Section } from '../../components/section.tsx'
import { useT } from '../../i18n/use-t.ts'
import { MintsList } from '../bonds/mints-list.tsx'
import '../../styles/dashboard.css'
import { PriceCard } from '../market/price-card.tsx'
import { BalanceCards } from './balance-cards.tsx'
import { FinancialStatsCard } from './financial-stats-card.tsx'

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
 * the bonds (the last two once the first screen has painted).
 */
export function DashboardScreen() {
  const t = useT()
  return (
    <div className="screen-stack" data-testid="screen-dashboard">
      <BalanceCards />
      <QuickActions />
      <PriceCard />
      {/* Below the first view: after the balances and the price have painted. */}
      <AfterFirstPaint>
        <FinancialStatsCard />
        <Section title={t('dashboard.bonds')}>
          <MintsList />
        </Section>
      </AfterFirstPaint>
    </div>
  )
}
