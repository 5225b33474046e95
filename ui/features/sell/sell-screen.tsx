import { observer } from 'mobx-react-lite'
import { type FormEvent, useId, useState } from 'react'
import { formatAmount, isTonAddress } from '../../../core/index.ts'
import { useSellState, useSessionState, useWalletState } from '../app-states.ts'
import { Button } from '../../components/button.tsx'
import { WalletIcon } from '../../components/icons.tsx'
import { InputAmount, useAmountField } from '../../components/input-amount.tsx'
import { QuoteRefusal } from '../../components/quote-refusal.tsx'
import { Row, ScreenHeader, Section } from '../../components/section.tsx'
import { Segmented } from '../../components/segmented.tsx'
import { useDebouncedEffect } from '../../hooks/use-debounced-effect.ts'
import { useT } from '../../i18n/use-t.ts'
import { type SaleDraft, SellModal } from './sell-modal.tsx'

type From = 'main' | 'referral'

/** The fee and what the user receives, once the amount and the address are both valid. */
const SellPreview = observer(function SellPreview({ amount, address }: { readonly amount: number | null; readonly address: string }) {
  const sell = useSellState()
  const t = useT()
  const addressOk = isTonAddress(address)
  useDebouncedEffect(() => {
    if (amount !== null) void sell.preview(amount, address)
  }, [amount, addressOk])
  const q = sell.quoteFor(amount, address)
  const refusal = sell.refusalFor(amount, address)
  if (refusal !== null) return <QuoteRefusal msg={refusal} testId="sell-preview-error" />
  if (!q) return null
  return (
    <div className="summary" data-testid="sell-preview">
      <Row label={t('sell.fee')} value={`${formatAmount(q.fee, 4)} AXIOM`} testId="sell-fee" />
      <Row label={t('sell.net')} value={`${formatAmount(q.net_amount, 4)} AXIOM`} testId="sell-net" strong />
      {q.amount_ton !== undefined ? <Row label={t('sell.tonAmount')} value={t('common.approxTon', { amount: formatAmount(q.amount_ton, 4) })} testId="sell-ton" /> : null}
    </div>
  )
})

/**
 * The sale just made, and where its payout is: its status until the chain's stream shows the
 * treasury's message ("Sent"), then "Paid" once that message is confirmed (`chain:payment`).
 */
const LastSale = observer(function LastSale() {
  const sell = useSellState()
  const t = useT()
  const sale = sell.lastSale
  if (!sale) return null
  const payout = sale.status === 'failed' ? null : sell.payoutOf(sale.id)
  return (
    <div className="card summary" data-testid="sell-last-sale" aria-live="polite">
      <Row
        label={t('sell.lastSale', { amount: formatAmount(sale.token_amount) })}
        value={payout ? t(`sell.payout.${payout}`) : sale.under_review ? t('withdraw.status.underReview') : t(`withdraw.status.${sale.status}`)}
        testId="sell-last-sale-status"
        strong
      />
    </div>
  )
})

/** Sell (routes /sell, /referral/sell, /tasks/sell): an amount from the main or referral balance to a TON address. */
export const SellScreen = observer(function SellScreen({ fromReferral }: { readonly fromReferral: boolean }) {
  const sell = useSellState()
  const session = useSessionState()
  const wallet = useWalletState()
  const t = useT()
  const addressId = useId()
  const [from, setFrom] = useState<From>(fromReferral ? 'referral' : 'main')
  // The main balance's locked part (welcome tokens) funds bonds but is never sold: the most to sell is the rest.
  const locked = from === 'main' ? (session.user?.locked_balance ?? 0) : 0
  const held = from === 'referral' ? session.user?.referral_balance : session.user?.balance_token
  const balance = held === undefined ? undefined : Math.max(0, held - locked)
  const amount = useAmountField(balance ?? 0)
  const [address, setAddress] = useState('')
  const [addressTouched, setAddressTouched] = useState(false)
  const addressOk = isTonAddress(address)
  // Said as soon as something that is not an address is typed or pasted; an empty field only once left or submitted.
  const addressError = !addressOk && (addressTouched || address.trim() !== '') ? t('sell.addressInvalid') : null
  const [draft, setDraft] = useState<SaleDraft | null>(null)
  const walletAddress = wallet.account ? (wallet.account.friendlyAddress ?? wallet.account.address) : null

  const submit = (e: FormEvent) => {
    e.preventDefault()
    amount.setTouched(true)
    setAddressTouched(true)
    if (amount.value === null || !addressOk || sell.isSaving) return
    setDraft({ amount: amount.value, address: address.trim(), fromReferral: from === 'referral' })
  }

  return (
    <div className="screen-stack" data-testid="screen-sell">
      <ScreenHeader title={t('sell.title')} subtitle={t('sell.subtitle')} />
      <form className="card stack" onSubmit={submit} noValidate>
        <Section title={t('sell.from')}>
          <Segmented<From>
            label={t('sell.from')}
            value={from}
            onChange={setFrom}
            options={[
              { value: 'main', label: t('sell.fromMain'), testId: 'sell-from-main' },
              { value: 'referral', label: t('sell.fromReferral'), testId: 'sell-from-referral' },
            ]}
          />
        </Section>
        <InputAmount
          field={amount}
          label={t('sell.amount')}
          max={balance ?? 0}
          testId="sell-amount"
          // With welcome tokens in the main balance, the figure beside the field is what can be sold, and says so.
          availableText={locked > 0 ? t('sell.availableToSell', { amount: formatAmount(balance ?? 0) }) : undefined}
          overBalanceText={locked > 0 ? t('sell.overSellable', { amount: formatAmount(balance ?? 0) }) : undefined}
        />
        {locked > 0 ? (
          <p className="muted" data-testid="sell-locked">
            {t('sell.locked', { amount: formatAmount(locked, 2) })}
          </p>
        ) : null}
        <div className={`field${addressError ? ' has-error' : ''}`}>
          <div className="field__top">
            <label className="field__label" htmlFor={addressId}>
              {t('sell.address')}
            </label>
            {walletAddress ? (
              <button
                type="button"
                className="link-btn"
                onClick={() => {
                  setAddress(walletAddress)
                  setAddressTouched(true)
                }}
                data-testid="sell-use-wallet"
              >
                <WalletIcon size={14} /> {t('sell.useWallet')}
              </button>
            ) : null}
          </div>
          <div className="field__control">
            <input
              id={addressId}
              className="field__input field__input--mono"
              type="text"
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              placeholder={t('sell.addressPlaceholder')}
              value={address}
              onChange={(e) => setAddress(e.target.value)}
              onBlur={() => setAddressTouched(true)}
              aria-invalid={addressError ? true : undefined}
              aria-describedby={addressError ? `${addressId}-error` : undefined}
              data-testid="sell-address"
            />
          </div>
          {addressError ? (
            <p className="field__error" id={`${addressId}-error`} role="alert" data-testid="sell-address-error">
              {addressError}
            </p>
          ) : null}
        </div>
        <SellPreview amount={amount.value} address={address} />
        <Button type="submit" block busy={sell.isSaving} disabled={amount.value === null || !addressOk || sell.refusalFor(amount.value, address) !== null} testId="sell-submit">
          {sell.isSaving ? t('sell.selling') : t('sell.submit')}
        </Button>
      </form>
      <LastSale />
      <SellModal
        draft={draft}
        onClose={() => setDraft(null)}
        onSold={() => {
          setDraft(null)
          amount.reset()
          setAddress('')
          setAddressTouched(false)
        }}
      />
    </div>
  )
})
