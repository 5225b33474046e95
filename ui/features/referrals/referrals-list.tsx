import { observer } from 'mobx-react-lite'
import { displayedLevel, formatAmount } from '../../../core/index.ts'
import { useReferralsState } from '../app-states.ts'
import { EmptyState } from '../../components/empty-state.tsx'
import { ReferralIcon } from '../../components/icons.tsx'
import { useLanguage, useT } from '../../i18n/use-t.ts'
import { formatDateTime } from '../../lib/format.ts'

/** The invited friends. */
export const ReferralsList = observer(function ReferralsList() {
  const referrals = useReferralsState()
  const t = useT()
  const language = useLanguage()
  if (referrals.referrals.length === 0)
    return <EmptyState icon={<ReferralIcon size={28} />} title={t('referral.noFriends')} hint={t('referral.noFriendsHint')} testId="referrals-empty" />
  return (
    <ul className="list card card--flush" data-testid="referrals-list">
      {referrals.referrals.map((r) => {
        const name = r.name ?? t('referral.friend', { id: r.id })
        return (
          <li key={r.id} className="list__item" data-testid={`referral-${r.id}`}>
            <span className="avatar" aria-hidden="true">
              {name.slice(0, 1).toUpperCase()}
            </span>
            <span className="list__main">
              <span className="list__title">{name}</span>
              <span className="list__meta">
                {r.level !== undefined ? t('referral.levelN', { n: displayedLevel(r.level) }) : null}
                {r.created_at ? ` · ${formatDateTime(r.created_at, language)}` : null}
              </span>
            </span>
            {r.turnover !== undefined ? <span className="list__amount num">{formatAmount(r.turnover)}</span> : null}
          </li>
        )
      })}
      {referrals.hasMore ? (
        <li className="list__item">
          <button type="button" className="btn btn--secondary btn--sm btn--block" data-testid="referrals-more" disabled={referrals.loadingMore} onClick={() => void referrals.loadMore()}>
            {t('referral.more', { shown: referrals.referrals.length, total: referrals.total })}
          </button>
        </li>
      ) : null}
    </ul>
  )
})
