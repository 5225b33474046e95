import { observer } from 'mobx-react-lite'
import type { ReactNode } from 'react'
import { formatAmount, type Mint, shownNumber, type Stake } from '../../../core/index.ts'
import { useT } from '../../i18n/use-t.ts'
import { RewardText } from './reward-text.tsx'

/** One bond or stake: amount, term, status, the ticking reward and its actions. */
export const RecordRow = observer(function RecordRow({
  record,
  kind,
  actions,
}: {
  readonly record: Mint | Stake
  readonly kind: 'mint' | 'stake'
  readonly actions?: ReactNode
}) {
  const t = useT()
  const id = record.id
  return (
    <li className={`record record--${record.status}`} data-testid={`${kind}-row-${id}`}>
      <div className="record__head">
        <span className="record__title">{t(kind === 'mint' ? 'mint.title' : 'stake.title', { id: shownNumber(record) })}</span>
        <span className={`status status--${record.status}`} data-testid={`${kind}-status-${id}`}>
          {t(`mint.status.${record.status}`)}
        </span>
      </div>
      <div className="record__grid">
        <div>
          <span className="record__label">{t('mint.amount')}</span>
          <span className="record__value num">{formatAmount(record.total_amount || record.amount_token)} AXIOM</span>
        </div>
        <div>
          <span className="record__label">{t('mint.term')}</span>
          <span className="record__value">{t('common.days', { n: record.tariff_days })}</span>
        </div>
        <div className="record__reward">
          <span className="record__label">{t('mint.reward')}</span>
          <span className="record__value record__value--accent">
            {record.status === 'canceled' ? (
              // Forfeited (spec: the backend keeps it); a bond cancelled unpaid had nothing to give up.
              <span data-testid={`${kind}-reward-${id}`}>{record.earned_reward > 0 ? t('mint.rewardGivenUp') : '—'}</span>
            ) : (
              <>
                <RewardText record={record} testId={`${kind}-reward-${id}`} /> AXIOM
              </>
            )}
          </span>
        </div>
        <div>
          <span className="record__label">{t('mint.maxReward')}</span>
          <span className="record__value num" data-testid={`${kind}-max-reward-${id}`}>
            {formatAmount(record.max_reward, 4)} AXIOM
          </span>
        </div>
      </div>
      {actions ? <div className="record__actions">{actions}</div> : null}
    </li>
  )
})
