import { observer } from 'mobx-react-lite'
import { COIN, type FinancialStats, formatAmount, formatNonZero } from '../../../core/index.ts'
import { useMarketState } from '../app-states.ts'
import { Section } from '../../components/section.tsx'
import { Skeleton } from '../../components/spinner.tsx'
import { useT } from '../../i18n/use-t.ts'
import { formatCount } from '../../lib/format.ts'

type Figure = keyof Omit<FinancialStats, 'price'>

/**
 * The figures shown, in order, each with its display; the price has its own card. Every amount and
 * the percentage at 2 places, more only where 2 would read a non-zero figure as zero (spec §5).
 */
const FIGURES: ReadonlyArray<{ readonly key: Figure; readonly show: (value: number) => string }> = [
  { key: 'total_locked', show: (v) => `${formatAmount(v)} AXIOM` },
  // The first rewards paid are fractions of a token: shown as they are, never as 0.00 (spec §5).
  { key: 'total_rewards_paid', show: (v) => `${formatNonZero(v)} AXIOM` },
  { key: 'total_withdrawn', show: (v) => `${formatAmount(v)} AXIOM` },
  { key: 'total_ton_raised', show: (v) => `${formatNonZero(v)} ${COIN}` },
  { key: 'total_users', show: formatCount },
  { key: 'active_bonds', show: formatCount },
  { key: 'active_stakes', show: formatCount },
  { key: 'collective_bonus', show: (v) => `${formatNonZero(v)}%` },
]

/** The platform's financial stats (`GET /stats/financial`), loaded with the dashboard. */
export const FinancialStatsCard = observer(function FinancialStatsCard() {
  const market = useMarketState()
  const t = useT()
  const stats = market.stats
  if (market.statsLoaded && !stats) return null
  const figures = FIGURES.flatMap(({ key, show }) => {
    const value = stats?.[key]
    return value === undefined ? [] : [{ key, text: show(value) }]
  })
  if (stats && figures.length === 0) return null
  return (
    <Section title={t('dashboard.stats')} testId="financial-stats">
      <dl className="card stats-grid" aria-busy={stats ? undefined : true}>
        {stats
          ? figures.map(({ key, text }) => (
              <div key={key} className="stat">
                <dt className="stat__label">{t(`dashboard.stats.${key}`)}</dt>
                <dd className="stat__value num" data-testid={`stat-${key}`}>
                  {text}
                </dd>
              </div>
            ))
          : FIGURES.slice(0, 4).map(({ key }) => (
              <div key={key} className="stat">
                <Skeleton width="70%" height={13} />
                <Skeleton width="55%" height={18} />
              </div>
            ))}
      </dl>
    </Section>
  )
})
