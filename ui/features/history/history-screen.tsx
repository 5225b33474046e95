import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import { formatAmount, formatNonZero, type Operation, shortAddress, type Withdrawal } from '../../../core/index.ts'
import { useHistoryState, useSellState } from '../app-states.ts'
import { EmptyState } from '../../components/empty-state.tsx'
import { HistoryIcon, type IconProps, Svg } from '../../components/icons.tsx'
import { ScreenHeader } from '../../components/section.tsx'
import { Segmented } from '../../components/segmented.tsx'
import { Skeleton } from '../../components/spinner.tsx'
import { useLanguage, useT } from '../../i18n/use-t.ts'
import { formatDateTime } from '../../lib/format.ts'
import { serverText } from '../../i18n/server-text.ts'
import '../../styles/history.css'

const ChevronRightIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="m9 5 7 7-7 7" />
  </Svg>
)

const ChevronLeftIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="m15 5-7 7 7 7" />
  </Svg>
)

type Tab = 'operations' | 'withdrawals'

interface PagedView {
  readonly page: number
  readonly pages: number
  readonly total: number
  readonly isFetching: boolean
  readonly hasNext: boolean
  readonly hasPrevious: boolean
  next(): Promise<void>
  previous(): Promise<void>
}

const Total = observer(function Total({ list }: { readonly list: PagedView }) {
  const t = useT()
  return (
    <p className="pager__total num" data-testid="history-total">
      {t('history.total', { total: list.total })}
    </p>
  )
})

const Pager = observer(function Pager({ list, name }: { readonly list: PagedView; readonly name: string }) {
  const t = useT()
  if (list.pages <= 1) return <Total list={list} />
  return (
    <>
      <nav className="pager" aria-label={name}>
        <button
          type="button"
          className="icon-btn icon-btn--filled"
          disabled={!list.hasPrevious || list.isFetching}
          onClick={() => void list.previous()}
          aria-label={t('history.prev')}
          data-testid="history-prev"
        >
          <ChevronLeftIcon size={18} />
        </button>
        <span className="pager__label num" data-testid="history-page">
          {t('history.page', { page: list.page, pages: list.pages })}
        </span>
        <button
          type="button"
          className="icon-btn icon-btn--filled"
          disabled={!list.hasNext || list.isFetching}
          onClick={() => void list.next()}
          aria-label={t('history.next')}
          data-testid="history-next"
        >
          <ChevronRightIcon size={18} />
        </button>
      </nav>
      <Total list={list} />
    </>
  )
})

/**
 * One operation: its text, when, and its amount in its unit (the backend names it: the coin, or TON
 * for a bond's price and a sale's payout). A row that moved none of the user's balances (a stake, a
 * bond from a link: balance `none`) shows what the event was worth, neither gained nor spent.
 */
export function OperationRow({ op }: { readonly op: Operation }) {
  const language = useLanguage()
  const t = useT()
  const sign = op.balance === 'none' ? 0 : Math.sign(op.amount)
  return (
    <li className="list__item" data-testid={`operation-${op.id}`} data-type={op.type}>
      <span className="list__main">
        <span className="list__title">{serverText(t, op.description_key, op.description_params, op.description ?? op.type)}</span>
        <span className="list__meta">{formatDateTime(op.created_at, language)}</span>
      </span>
      <span className={`list__amount num${sign < 0 ? ' is-negative' : sign > 0 ? ' is-positive' : ''}`} data-testid={`operation-${op.id}-amount`}>
        {/* The typographic minus, as the withdrawals and every other screen show it. */}
        {sign > 0 ? '+' : sign < 0 ? '−' : ''}
        {formatNonZero(Math.abs(op.amount), 4)}
        {op.unit ? <>{' '}<span className="operation__unit">{op.unit}</span></> : null}
      </span>
    </li>
  )
}

/**
 * One sale of the withdraw history; a pending sale the backend holds for the operator's check reads as
 * under review; one to a new address, waiting its cooling period, says when it goes and that the
 * bot's message can cancel it. `payout` is what the chain's stream showed of its payout (`chain:payment`):
 * "Sent" once the treasury's message is seen, "Paid" once confirmed, before the history is read again.
 */
export function WithdrawalRow({ w, payout = null }: { readonly w: Withdrawal; readonly payout?: 'sent' | 'paid' | null }) {
  const t = useT()
  const language = useLanguage()
  const review = w.status === 'pending' && w.under_review === true
  const cooling = w.status === 'pending' && w.release_at !== undefined
  // A failed sale keeps its status; one the stream saw paid reads as paid, as completed does.
  const chain = w.status === 'failed' ? null : payout
  return (
    <li className="list__item" data-testid={`withdrawal-${w.id}`}>
      <span className="list__main">
        <span className="list__title">{t('history.to', { address: shortAddress(w.address) })}</span>
        <span className="list__meta">
          {formatDateTime(w.created_at, language)} · {w.from_ref_balance ? t('history.fromReferral') : t('history.fromMain')}
          {w.fee !== undefined ? ` · ${t('history.fee', { amount: formatAmount(w.fee, 4) })}` : ''}
        </span>
        {review ? (
          <span className="list__meta" data-testid={`withdrawal-${w.id}-review`}>
            {t('withdraw.underReviewHint')}
          </span>
        ) : null}
        {cooling ? (
          <span className="list__meta" data-testid={`withdrawal-${w.id}-cooling`}>
            {t('withdraw.coolingHint', { time: formatDateTime(w.release_at!, language) })}
          </span>
        ) : null}
      </span>
      <span className="list__end">
        <span className="list__amount num">−{formatAmount(w.token_amount, 4)}</span>
        <span className={`status status--${chain === 'paid' ? 'completed' : w.status}`} data-testid={`withdrawal-${w.id}-status`}>
          {chain ? t(`sell.payout.${chain}`) : review ? t('withdraw.status.underReview') : t(`withdraw.status.${w.status}`)}
        </span>
      </span>
    </li>
  )
}

const Loading = () => (
  <div className="card stack" aria-busy="true">
    <Skeleton height={18} />
    <Skeleton height={18} />
    <Skeleton height={18} />
  </div>
)

const Operations = observer(function Operations() {
  const history = useHistoryState()
  const t = useT()
  const list = history.operations
  if (list.items.length === 0 && list.isFetching) return <Loading />
  if (list.items.length === 0) return <EmptyState icon={<HistoryIcon size={28} />} title={t('history.emptyOps')} testId="history-empty" />
  return (
    <>
      <ul className={`list card card--flush${list.isFetching ? ' is-fetching' : ''}`} data-testid="operations-list">
        {list.items.map((op) => (
          <OperationRow key={op.id} op={op} />
        ))}
      </ul>
      <Pager list={list} name={t('history.operations')} />
    </>
  )
})

const Withdrawals = observer(function Withdrawals() {
  const history = useHistoryState()
  const sell = useSellState()
  const t = useT()
  const list = history.withdrawals
  if (list.items.length === 0 && list.isFetching) return <Loading />
  if (list.items.length === 0) return <EmptyState icon={<HistoryIcon size={28} />} title={t('history.emptyWithdrawals')} testId="history-empty" />
  return (
    <>
      <ul className={`list card card--flush${list.isFetching ? ' is-fetching' : ''}`} data-testid="withdrawals-list">
        {list.items.map((w) => (
          <WithdrawalRow key={w.id} w={w} payout={sell.payoutOf(w.id)} />
        ))}
      </ul>
      <Pager list={list} name={t('history.withdrawals')} />
    </>
  )
})

/** Route /history: operations and withdrawals, 10 a page. */
export function HistoryScreen() {
  const history = useHistoryState()
  const t = useT()
  const [tab, setTab] = useState<Tab>('operations')
  useEffect(() => {
    void history.refresh()
  }, [history])
  return (
    <div className="screen-stack" data-testid="screen-history">
      <ScreenHeader title={t('history.title')} />
      <Segmented<Tab>
        label={t('history.tabs')}
        value={tab}
        onChange={setTab}
        options={[
          { value: 'operations', label: t('history.operations'), testId: 'history-tab-operations' },
          { value: 'withdrawals', label: t('history.withdrawals'), testId: 'history-tab-withdrawals' },
        ]}
      />
      {tab === 'operations' ? <Operations /> : <Withdrawals />}
    </div>
  )
}
