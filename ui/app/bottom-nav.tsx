import { observer } from 'mobx-react-lite'
import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { usePathname } from '../hooks/navigation.ts'
import { useLaterScreenStates } from '../features/app-states.ts'
import { type MessageKey, useT } from '../i18n/use-t.ts'
import { BondIcon, DashboardIcon, ReferralIcon, StakingIcon, TasksIcon } from '../components/icons.tsx'

interface Tab {
  readonly to: string
  readonly label: MessageKey
  readonly icon: ReactNode
  readonly testId: string
  readonly end?: boolean
}

const TABS: ReadonlyArray<Tab> = [
  { to: '/bond', label: 'nav.bond', icon: <BondIcon />, testId: 'tab-bond' },
  { to: '/staking', label: 'nav.staking', icon: <StakingIcon />, testId: 'tab-staking' },
  { to: '/', label: 'nav.dashboard', icon: <DashboardIcon />, testId: 'tab-dashboard', end: true },
  { to: '/referral', label: 'nav.referral', icon: <ReferralIcon />, testId: 'tab-referral' },
  { to: '/tasks', label: 'nav.tasks', icon: <TasksIcon />, testId: 'tab-tasks' },
]

// The badges come with the other screens' view models, made after the first paint (none before it).
const ReferralBadge = observer(function ReferralBadge() {
  const referrals = useLaterScreenStates().current?.referrals
  return referrals?.badge ? (
    <span className="tab__badge" data-testid="badge-referral">
      {referrals.badge}
    </span>
  ) : null
})

const TasksBadge = observer(function TasksBadge() {
  const tasks = useLaterScreenStates().current?.tasks
  return tasks && tasks.badge > 0 ? (
    <span className="tab__badge" data-testid="badge-tasks">
      {tasks.badge}
    </span>
  ) : null
})

/** A tab is active on its route and, unless it is `end`, on the routes under it (/referral/sell: Referral). */
const isActive = (tab: Tab, pathname: string): boolean =>
  pathname === tab.to || (!tab.end && pathname.startsWith(`${tab.to}/`))

/** The five tabs (spec §2), with the '+N' referral badge and the unclaimed-tasks count. */
export function BottomNav() {
  const t = useT()
  const pathname = usePathname()
  return (
    <nav className="bottom-nav" aria-label={t('nav.label')}>
      {TABS.map((tab) => (
        <Link
          key={tab.to}
          to={tab.to}
          className={isActive(tab, pathname) ? 'tab is-active' : 'tab'}
          aria-current={isActive(tab, pathname) ? 'page' : undefined}
          data-testid={tab.testId}
        >
          <span className="tab__icon">
            {tab.icon}
            {tab.testId === 'tab-referral' ? <ReferralBadge /> : tab.testId === 'tab-tasks' ? <TasksBadge /> : null}
          </span>
          <span className="tab__label">{t(tab.label)}</span>
        </Link>
      ))}
    </nav>
  )
}
