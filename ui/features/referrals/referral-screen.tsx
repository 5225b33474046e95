import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import { Link } from 'wouter'
import { displayedLevel, formatAmount, referralLink } from '../../../core/index.ts'
import { useReferralsState, useSessionState } from '../app-states.ts'
import { useUiConfig } from '../../lib/host-contexts.ts'
import { Button } from '../../components/button.tsx'
import { CardBalance } from '../../components/card-balance.tsx'
import { RebondIcon, SellIcon } from '../../components/icons.tsx'
import { ScreenHeader, Section } from '../../components/section.tsx'
import { Skeleton } from '../../components/spinner.tsx'
import { useT } from '../../i18n/use-t.ts'
import { TransferIcon, TransferModal } from '../sell/transfer-modal.tsx'
import { ReferralsList } from './referrals-list.tsx'
import { TierTable } from './tier-table.tsx'
import '../../styles/referral.css'
import '../../styles/new-user.css'

const LevelCard = observer(function LevelCard() {
  const session = useSessionState()
  const t = useT()
  const user = session.user
  return (
    <div className="card level-card" data-testid="referral-level">
      <span className="level-card__label">{t('referral.level')}</span>
      <span className="level-card__value" data-testid="referral-level-value">
        {user ? t('referral.levelN', { n: displayedLevel(user.ref.level) }) : <Skeleton width={90} height={24} />}
      </span>
      {user?.ref.turnover !== undefined ? (
        <span className="level-card__meta num">
          {t('referral.turnoverAmount', { amount: formatAmount(user.ref.turnover) })}
        </span>
      ) : null}
    </div>
  )
})

const ReferralBalance = observer(function ReferralBalance() {
  const session = useSessionState()
  const t = useT()
  const [open, setOpen] = useState(false)
  const balance = session.user?.referral_balance
  return (
    <>
      <CardBalance
        label={t('balance.referral')}
        amount={balance !== undefined ? formatAmount(balance) : <Skeleton width={90} height={22} />}
        testId="referral-balance"
        footer={
          <div className="button-row">
            <Button size="sm" icon={<TransferIcon size={16} />} disabled={!balance} onClick={() => setOpen(true)} testId="open-transfer">
              {t('referral.transfer')}
            </Button>
            <Link to="/referral/re-bonding" className="btn btn--secondary btn--sm" data-testid="link-referral-rebond">
              <RebondIcon size={16} />
              <span>{t('referral.rebond')}</span>
            </Link>
            <Link to="/referral/sell" className="btn btn--secondary btn--sm" data-testid="link-referral-sell">
              <SellIcon size={16} />
              <span>{t('referral.sell')}</span>
            </Link>
          </div>
        }
      />
      <TransferModal open={open} onClose={() => setOpen(false)} />
    </>
  )
})

/**
 * The referral link, whole (it wraps rather than being cut), and its code on a line of its own so it
 * can be read out. Copying is the top bar's one copy button (spec §2), not a second one here.
 */
const ReferralLinkLine = observer(function ReferralLinkLine() {
  const session = useSessionState()
  const config = useUiConfig()
  const t = useT()
  const code = session.user?.ref_code
  if (!code) return null
  const link = referralLink(config, code)
  return (
    <div className="copy-line">
      <span className="copy-line__label">{t('referral.link')}</span>
      <div className="copy-line__box">
        <code className="copy-line__value copy-line__value--whole" data-testid="referral-link">
          {link}
        </code>
      </div>
      <span className="copy-line__label">
        {t('referral.code')} <code className="copy-line__code" data-testid="referral-code">{code}</code>
      </span>
    </div>
  )
})

const Tiers = observer(function Tiers() {
  const session = useSessionState()
  const t = useT()
  const user = session.user
  return (
    <Section title={t('referral.tiers')}>
      <TierTable currentLevel={user ? displayedLevel(user.ref.level) : null} />
    </Section>
  )
})

/** Route /referral: the level and tiers, the friends, inviting, and the referral balance's uses. */
export function ReferralScreen() {
  const referrals = useReferralsState()
  const t = useT()
  useEffect(() => referrals.view(), [referrals])
  return (
    <div className="screen-stack" data-testid="screen-referral">
      <ScreenHeader title={t('referral.title')} subtitle={t('referral.subtitle')} />
      <LevelCard />
      <ReferralBalance />
      <ReferralLinkLine />
      <Tiers />
      <Section title={t('referral.friends')}>
        <ReferralsList />
      </Section>
    </div>
  )
}
