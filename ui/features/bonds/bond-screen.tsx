import { observer } from 'mobx-react-lite'
import { type FormEvent, useEffect, useState } from 'react'
import { BOND_FEE_RESERVE, COIN, coinFromNano, dailyPercent, formatAmount, perDayRate } from '../../../core/index.ts'
import { useBondsState, useMarketState, useWalletState } from '../app-states.ts'
import { useNavigate } from '../../hooks/navigation.ts'
import { Button } from '../../components/button.tsx'
import { DayChips } from '../../components/chips.tsx'
import { EmptyState } from '../../components/empty-state.tsx'
import { BondIcon, WalletIcon } from '../../components/icons.tsx'
import { InputAmount, useAmountField } from '../../components/input-amount.tsx'
import { QuoteRefusal } from '../../components/quote-refusal.tsx'
import { Row, ScreenHeader, Section } from '../../components/section.tsx'
import { Skeleton, Spinner } from '../../components/spinner.tsx'
import { useDebouncedEffect } from '../../hooks/use-debounced-effect.ts'
import { useStillMounted } from '../../hooks/use-still-mounted.ts'
import { type MessageKey, useT } from '../../i18n/use-t.ts'
import { WalletChip } from '../wallet/wallet-chip.tsx'
import { BondQuoteState } from './bond-quote-state.ts'
import { WalletBalanceState } from './wallet-balance-state.ts'
import '../../styles/new-user.css'

/**
 * The least a bond takes: the reference backend quotes 1 to 1 000 000 AXIOM (its BOND_MIN and
 * BOND_MAX; the API has no call that gives them). Said up front; an amount under it is still
 * answered by the server's own refusal in the summary.
 */
export const BOND_MIN_AMOUNT = 1

/** What the summary asks for while it cannot quote: only what is still missing. */
const previewHint = (amount: number | null, days: number | null): MessageKey =>
  days === null && amount === null ? 'bond.previewHint' : days === null ? 'bond.previewHintTerm' : 'bond.previewHintAmount'

const BondPreview = observer(function BondPreview({
  quotes,
  amount,
  days,
}: {
  readonly quotes: BondQuoteState
  readonly amount: number | null
  readonly days: number | null
}) {
  const t = useT()
  useDebouncedEffect(() => {
    if (amount !== null && days !== null) void quotes.preview(amount, days)
  }, [amount, days])

  const quote = quotes.quoteFor(amount, days)
  const calculating = quote === null && quotes.quoteKey !== `${amount}:${days}`
  if (amount === null || days === null)
    return (
      <p className="muted preview-hint" data-testid="bond-preview-hint">
        {t(previewHint(amount, days), { min: formatAmount(BOND_MIN_AMOUNT) })}
      </p>
    )
  const refusal = quotes.refusalFor(amount, days)
  if (refusal !== null) return <QuoteRefusal msg={refusal} testId="bond-preview-error" />
  return (
    <div className="summary" aria-busy={calculating || undefined} data-testid="bond-preview">
      {quote ? (
        <>
          <Row label={t('mint.amount')} value={`${formatAmount(quote.amount_token)} AXIOM`} testId="bond-preview-amount" />
          <Row label={t('mint.term')} value={t('common.days', { n: quote.tariff_days })} testId="bond-preview-days" />
          <Row label={t('bond.youPayNow')} value={`${formatAmount(quote.amount_ton, 4)} ${COIN}`} testId="bond-preview-ton" strong />
          <Row label={t('bond.dailyRate')} value={t('common.percentPerDay', { value: formatAmount(dailyPercent(quote), 4) })} testId="bond-preview-daily" />
          <Row
            label={t('bond.dailyIncome')}
            value={t('common.tokensPerDay', { amount: formatAmount(perDayRate({ ...quote, total_amount: quote.amount_token }), 4) })}
            testId="bond-preview-per-day"
          />
          <Row label={t('bond.maxReward')} value={`${formatAmount(quote.max_reward, 4)} AXIOM`} testId="bond-preview-max" />
          <Row label={t('bond.expectedReward')} value={`${formatAmount(quote.expected_reward, 4)} AXIOM`} testId="bond-preview-expected" />
          <p className="amount-note" data-testid="bond-preview-price-note">
            {t('bond.priceMoves')}
          </p>
        </>
      ) : calculating ? (
        <div className="summary__loading">
          <Spinner size={16} /> <span>{t('bond.calculating')}</span>
        </div>
      ) : null}
    </div>
  )
})

/**
 * The connected wallet's balance under the amount, and what Max keeps back for the network fee; said
 * in place when the chain cannot be read (the form works without it). Nothing while it is read.
 */
const WalletBalanceNote = observer(function WalletBalanceNote({ state, hasMax }: { readonly state: WalletBalanceState; readonly hasMax: boolean }) {
  const t = useT()
  const balance = state.balance
  if (balance === null || balance.kind === 'none') return null
  if (balance.kind === 'unavailable')
    return (
      <p className="amount-note" role="status" data-testid="bond-wallet-balance">
        {t('bond.balanceUnavailable')}
      </p>
    )
  return (
    <p className="amount-note" data-testid="bond-wallet-balance">
      <span className="num">{t('bond.walletBalance', { amount: `${formatAmount(coinFromNano(balance.nano), 4)} ${COIN}` })}</span>
      {hasMax ? (
        <>
          {' '}
          <span data-testid="bond-max-note">{t('bond.maxNote', { reserve: `${formatAmount(BOND_FEE_RESERVE)} ${COIN}` })}</span>
        </>
      ) : null}
    </p>
  )
})

const BondAction = observer(function BondAction({ canBuy }: { readonly canBuy: boolean }) {
  const bonds = useBondsState()
  const wallet = useWalletState()
  const t = useT()
  if (!wallet.isConnected)
    return (
      <Button block busy={wallet.isConnecting || wallet.isRestoring} icon={<WalletIcon size={18} />} onClick={() => void wallet.connect()} testId="connect-wallet">
        {wallet.isConnecting ? t('bond.connecting') : t('bond.connect')}
      </Button>
    )
  const checking = bonds.bondList.isSaving && bonds.bondList.payChecking
  return (
    <>
      <Button type="submit" block busy={bonds.bondList.isSaving} disabled={!canBuy} testId="buy-bond">
        {checking ? t('bond.checkingPayment') : bonds.bondList.isSaving ? t('bond.buying') : t('bond.buy')}
      </Button>
      {checking ? (
        <p className="amount-note" role="status" data-testid="bond-pay-checking">
          {t('bond.checkingPaymentNote')}
        </p>
      ) : null}
    </>
  )
})

/** Route /bond (mint): pick a term, enter an amount, preview, and buy through the wallet. */
export const BondScreen = observer(function BondScreen() {
  const bonds = useBondsState()
  const wallet = useWalletState()
  const market = useMarketState()
  const t = useT()
  const navigate = useNavigate()
  const stillHere = useStillMounted()
  const amount = useAmountField()
  const [chosen, setChosen] = useState<number | null>(null)
  const plans = bonds.bondList.activePlans
  const days = chosen !== null && plans.some((p) => p.days === chosen) ? chosen : (plans[0]?.days ?? null)
  // The wallet's balance, read again whenever the connected wallet changes; Max only with a reading and a price.
  const [balance] = useState(() => new WalletBalanceState(() => bonds.readWalletBalance()))
  // The server's quote for the amount and term entered.
  const [quotes] = useState(() => new BondQuoteState(bonds))
  const address = wallet.isConnected ? (wallet.account?.address ?? null) : null
  useEffect(() => {
    void balance.refresh()
  }, [balance, address])
  const max = address === null ? null : balance.maxAmount(market.price?.price ?? null)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    amount.setTouched(true)
    if (!wallet.isConnected || amount.value === null || days === null || bonds.bondList.isSaving || quotes.refusalFor(amount.value, days) !== null) return
    const r = await bonds.bondList.buy(amount.value, days)
    // The purchase resolves once the balance watch ends (up to 30 s): only a user still here is taken to the dashboard.
    if (r && stillHere()) {
      amount.reset()
      navigate('/')
    }
  }

  return (
    <div className="screen-stack" data-testid="screen-bond">
      <ScreenHeader title={t('bond.title')} subtitle={t('bond.subtitle')} aside={<WalletChip />} />
      <form className="card stack" onSubmit={(e) => void submit(e)} noValidate>
        <Section title={t('bond.term')}>
          {plans.length > 0 ? (
            <DayChips label={t('bond.term')} days={plans.map((p) => p.days)} value={days} onChange={setChosen} format={(n) => t('common.days', { n })} testIdPrefix="bond-plan" />
          ) : bonds.isFetching ? (
            <Skeleton height={36} />
          ) : (
            <EmptyState icon={<BondIcon size={24} />} title={t('bond.noPlans')} testId="bond-no-plans" />
          )}
        </Section>
        <InputAmount
          field={amount}
          label={t('bond.amount')}
          testId="bond-amount"
          {...(max !== null ? { max, availableText: t('bond.maxFits', { amount: formatAmount(max) }) } : {})}
        />
        <p className="amount-note" data-testid="bond-min">
          {t('bond.min', { min: formatAmount(BOND_MIN_AMOUNT) })}
        </p>
        {address !== null ? <WalletBalanceNote state={balance} hasMax={max !== null && max > 0} /> : null}
        <BondPreview quotes={quotes} amount={amount.value} days={days} />
        <BondAction canBuy={amount.value !== null && days !== null && quotes.refusalFor(amount.value, days) === null} />
      </form>
    </div>
  )
})
