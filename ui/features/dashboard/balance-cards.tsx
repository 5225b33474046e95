import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import { formatAmount } from '../../../core/index.ts'
import { snapshotAge } from '../../../core/domain/kept-dashboard.ts'
import { useBondsState, useFirstFiguresStates } from '../app-states.ts'
import { CardBalance } from '../../components/card-balance.tsx'
import { Skeleton } from '../../components/spinner.tsx'
import { TokenIcon } from '../../components/token-icon.tsx'
import { useComputed } from '../../hooks/use-computed.ts'
import { useT } from '../../i18n/use-t.ts'
import { firstFiguresIn, keptFigures } from '../../state/first-figures.ts'
import '../../styles/new-user.css'

/** Decimals shown for the ticking figures, so that a second's accrual is visible. */
const MAIN_DECIMALS = 6
const EARNED_TODAY_DECIMALS = 6

/**
 * The main balance as displayed: balance_token plus today's accrual (spec §4), every second. It
 * shows with the dashboard's other first figures (first-figures.ts), so it never jumps by the day's
 * accrual as the bonds arrive.
 */
const MainAmount = observer(function MainAmount() {
  const states = useFirstFiguresStates()
  const { session, bonds } = states
  const text = useComputed(() => {
    if (session.user && firstFiguresIn(states)) return formatAmount(session.user.balance_token + bonds.stakeList.earnedToday, MAIN_DECIMALS)
    // The kept dashboard's figure, as it was shown when it was kept.
    const kept = keptFigures(states)
    return kept ? formatAmount(kept.mainBalance, MAIN_DECIMALS) : null
  }, [states])
  return text ?? <Skeleton width={140} height={28} />
})

/**
 * "Updated 12 s ago": the kept dashboard's age, counted every second, in the row "Total earned today"
 * takes once the fresh figures are in (the same height: nothing moves when they come).
 */
function KeptAge({ savedAtMs }: { readonly savedAtMs: number }) {
  const t = useT()
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000)
    return () => clearInterval(timer)
  }, [])
  const age = snapshotAge(savedAtMs, now)
  return (
    <div className="earned-today">
      <span className="earned-today__label" role="status" data-testid="dashboard-kept-age">
        {t(`dashboard.kept.${age.unit}`, { n: age.n })}
      </span>
    </div>
  )
}

/** Today's earnings, or the kept dashboard's age while it is on show. */
const EarnedTodayOrAge = observer(function EarnedTodayOrAge() {
  const kept = keptFigures(useFirstFiguresStates())
  return kept ? <KeptAge savedAtMs={kept.savedAtMs} /> : <EarnedToday />
})

/** "Total earned today", ticking every second. */
export const EarnedToday = observer(function EarnedToday() {
  const bonds = useBondsState()
  const t = useT()
  const text = useComputed(() => formatAmount(bonds.stakeList.earnedToday, EARNED_TODAY_DECIMALS), [bonds])
  return (
    <div className="earned-today">
      <span className="earned-today__label">{t('dashboard.earnedToday')}</span>
      <span className="earned-today__value num" data-testid="earned-today">
        {t('dashboard.earnedTodayAmount', { amount: text })}
      </span>
    </div>
  )
})

/**
 * The main balance's welcome tokens (its locked part): counted in it, good for bonds, never sold.
 * Said under the figure, so the balance does not promise money the Sell screen will not pay out.
 */
const WelcomePart = observer(function WelcomePart() {
  const states = useFirstFiguresStates()
  const t = useT()
  const kept = keptFigures(states)
  const locked = (kept ? kept.balances.locked_balance : states.session.user?.locked_balance) ?? 0
  if (!(locked > 0) || !(kept || firstFiguresIn(states))) return null
  return (
    <p className="muted balance-welcome" data-testid="balance-main-welcome">
      {t('dashboard.welcomePart', { amount: formatAmount(locked) })}
    </p>
  )
})

const SideBalance = observer(function SideBalance({ field }: { readonly field: 'referral_balance' | 'task_balance' }) {
  const states = useFirstFiguresStates()
  const user = states.session.user
  if (user && firstFiguresIn(states)) return formatAmount(user[field])
  const kept = keptFigures(states)
  return kept ? formatAmount(kept.balances[field]) : <Skeleton width={80} height={20} />
})

export function BalanceCards() {
  const t = useT()
  return (
    <div className="balance-cards">
      <CardBalance
        tone="main"
        label={t('balance.main')}
        icon={<TokenIcon size={22} />}
        amount={<MainAmount />}
        footer={
          <>
            <WelcomePart />
            <EarnedTodayOrAge />
          </>
        }
        testId="balance-main"
      />
      <div className="balance-cards__row">
        <CardBalance label={t('balance.referral')} amount={<SideBalance field="referral_balance" />} testId="balance-referral" />
        <CardBalance label={t('balance.task')} amount={<SideBalance field="task_balance" />} testId="balance-task" />
      </div>
    </div>
  )
}
