import { Section } from '../../components/section.tsx'
import { useT } from '../../i18n/use-t.ts'
import { MintsList } from '../bonds/mints-list.tsx'
import { FinancialStatsCard } from './financial-stats-card.tsx'

/** The dashboard under its first view: the platform's stats and the user's bonds. */
export function DashboardBelowFold() {
  const t = useT()
  return (
    <>
      <FinancialStatsCard />
      <Section title={t('dashboard.bonds')}>
        <MintsList />
      </Section>
    </>
  )
}
