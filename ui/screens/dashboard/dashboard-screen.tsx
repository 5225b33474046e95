import { Link } from 'react-router'
import { HistoryIcon, RebondIcon, SellIcon } from '../../components/icons.tsx'
import { MintsList } from '../../components/mints-list.tsx'
import { Section } from '../../components/section.tsx'
import { useT } from '../../i18n/use-t.ts'
import '../../styles/dashboard.css'
import { BalanceCards } from './balance-cards.tsx'
import { PriceCard } from './price-card.tsx'

function QuickActions() {
  const t = useT()
  return (
    <div className="quick-actions">
      <Link to="/re-bonding" className="quick-action" data-testid="link-rebond">
        <span className="quick-action__icon">
          <RebondIcon size={20} />
        </span>
        {t('dashboard.rebond')}
      </Link>
      <Link to="/sell" className="quick-action" data-testid="link-sell">
        <span className="quick-action__icon">
          <SellIcon size={20} />
        </span>
        {t('dashboard.sell')}
      </Link>
      <Link to="/history" className="quick-action" data-testid="link-history">
        <span className="quick-action__icon">
          <HistoryIcon size={20} />
        </span>
        {t('dashboard.history')}
      </Link>
    </div>
  )
}

/** The dashboard (route '/'): balances, today's earnings, the price and chart, and the bonds. */
export function DashboardScreen() {
  const t = useT()
  return (
    <div className="screen-stack" data-testid="screen-dashboard">
      <BalanceCards />
      <QuickActions />
      <PriceCard />
      <Section title={t('dashboard.bonds')}>
        <MintsList />
      </Section>
    </div>
  )
}
