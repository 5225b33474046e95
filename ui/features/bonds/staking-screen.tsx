import { observer } from 'mobx-react-lite'
import { Link } from 'wouter'
import { useBondsState } from '../app-states.ts'
import { EmptyState } from '../../components/empty-state.tsx'
import { type IconProps, StakingIcon, Svg } from '../../components/icons.tsx'
import { RecordRow } from './record-row.tsx'
import { ScreenHeader, Section } from '../../components/section.tsx'
import { Skeleton } from '../../components/spinner.tsx'
import { useT } from '../../i18n/use-t.ts'

const PlusIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M12 5v14M5 12h14" />
  </Svg>
)

const StakesList = observer(function StakesList() {
  const bonds = useBondsState()
  const t = useT()
  const stakes = bonds.stakeList.visibleStakes
  if (stakes.length === 0 && bonds.isFetching)
    return (
      <div className="card stack" aria-busy="true">
        <Skeleton height={20} width="40%" />
        <Skeleton height={56} />
      </div>
    )
  if (stakes.length === 0)
    return <EmptyState icon={<StakingIcon size={28} />} title={t('staking.empty')} hint={t('staking.emptyHint')} testId="stakes-empty" />
  return (
    <ul className="record-list" data-testid="stakes-list">
      {stakes.map((s) => (
        <RecordRow key={s.id} record={s} kind="stake" />
      ))}
    </ul>
  )
})

/** Route /staking: the stakes with ticking rewards, and the way to stake a bond. */
export function StakingScreen() {
  const t = useT()
  return (
    <div className="screen-stack" data-testid="screen-staking">
      <ScreenHeader title={t('staking.title')} subtitle={t('staking.subtitle')} />
      <Link to="/staking/select" className="btn btn--primary btn--md btn--block" data-testid="stake-bond">
        <PlusIcon size={18} />
        <span>{t('staking.stakeBond')}</span>
      </Link>
      <Section title={t('staking.stakes')}>
        <StakesList />
      </Section>
    </div>
  )
}
