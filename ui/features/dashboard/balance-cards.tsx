import { observer } from 'mobx-react-lite'
import { formatAmount } from '../../../core/index.ts'
import { useBondsState, useFirstFiguresStates } from '../app-states.ts'
import { CardBalance } from '../../components/card-balance.tsx'
import { Skeleton } from '../../components/spinner.tsx'
import { TokenIcon } from '../../components/token-icon.tsx'
import { useComputed } from '../../hooks/use-computed.ts'
import { useT } from '../../i18n/use-t.ts'
import { firstFiguresIn } from '../../state/first-figures.ts'
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
  const text = useComputed(
    () => (session.user && firstFiguresIn(states) ? formatAmount(session.user.balance_token + bonds.stakeList.earnedToday, MAIN_DECIMALS) : null),
    [states],
  )
  return text ?? <Skeleton width={140} height={28} />
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
  const locked = states.session.user?.locked_balance ?? 0
  if (!(locked > 0) || !firstFiguresIn(states)) return null
  return (
    <p className="muted balance-welcome" data-testid="balance-main-welcome">
      {t('dashboard.welcomePart', { amount: formatAmount(locked) })}
    </p>
  )
})

const SideBalance = observer(function SideBalance({ field }: { readonly field: 'referral_balance' | 'task_balance' }) {
  const states = useFirstFiguresStates()
  const user = states.session.user
  return user && firstFiguresIn(states) ? formatAmount(user[field]) : <Skeleton width={80} height={20} />
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
            <EarnedToday />
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
