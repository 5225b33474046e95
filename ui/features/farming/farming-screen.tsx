import { observer } from 'mobx-react-lite'
import { type FormEvent, useEffect, useId, useState } from 'react'
import { activePlansByDays, dailyPercent, type FarmingLink, formatAmount, type FundingSource, type UserData } from '../../../core/index.ts'
import { useFarmingState, useSessionState } from '../app-states.ts'
import { Button } from '../../components/button.tsx'
import { DayChips } from '../../components/chips.tsx'
import { InputAmount, useAmountField } from '../../components/input-amount.tsx'
import { QuoteRefusal } from '../../components/quote-refusal.tsx'
import { Row, ScreenHeader, Section } from '../../components/section.tsx'
import { Segmented } from '../../components/segmented.tsx'
import { useDebouncedEffect } from '../../hooks/use-debounced-effect.ts'
import { useT } from '../../i18n/use-t.ts'
import { FarmingLinksList } from './farming-links-list.tsx'
import { FarmingLinksModal } from './farming-links-modal.tsx'

type Usage = 'single' | 'multi'
type Audience = 'me' | 'share'

const parseActivations = (text: string): number | null => (/^\d+$/.test(text.trim()) && Number(text) >= 1 ? Number(text) : null)

/** What a link takes from its balance: amount × activations, summed in cents so that 0.10 × 3 is 0.30. */
const linkFund = (amount: number, activations: number): number => (Math.round(amount * 100) * activations) / 100

const balanceOf = (user: UserData | null, source: FundingSource): number | undefined =>
  !user ? undefined : source === 'main' ? user.balance_token : source === 'referral' ? user.referral_balance : user.task_balance

const FarmingPreview = observer(function FarmingPreview({ amount, days }: { readonly amount: number | null; readonly days: number | null }) {
  const farming = useFarmingState()
  const t = useT()
  useDebouncedEffect(() => {
    if (amount !== null && days !== null) void farming.preview(amount, days)
  }, [amount, days, farming.source])
  const q = farming.quoteFor(amount, days)
  const refusal = farming.refusalFor(amount, days)
  if (refusal !== null) return <QuoteRefusal msg={refusal} testId="farming-preview-error" />
  if (amount === null || days === null || !q) return null
  return (
    <div className="summary" data-testid="farming-preview">
      <Row label={t('bond.dailyRate')} value={t('common.percentPerDay', { value: formatAmount(dailyPercent(q), 4) })} testId="farming-preview-daily" />
      <Row label={t('bond.maxReward')} value={`${formatAmount(q.max_reward, 4)} AXIOM`} testId="farming-preview-max" />
      <Row label={t('bond.expectedReward')} value={`${formatAmount(q.expected_reward, 4)} AXIOM`} strong />
    </div>
  )
})

/**
 * Re-bonding: a farming link paid from the balance its route names — the main balance (/re-bonding,
 * from the dashboard), the referral balance (/referral/re-bonding) or the task balance
 * (/tasks/re-bonding) — single or multi-use, for me or to share; and the links list.
 */
export const FarmingScreen = observer(function FarmingScreen({ source }: { readonly source: FundingSource }) {
  const farming = useFarmingState()
  const session = useSessionState()
  const t = useT()
  const activationsId = useId()
  useEffect(() => {
    void farming.chooseSource(source)
  }, [farming, source])

  const balance = balanceOf(session.user, source)
  const amount = useAmountField(balance ?? 0)
  const plans = activePlansByDays(farming.plans)
  const [chosenDays, setChosenDays] = useState<number | null>(null)
  const days = chosenDays !== null && plans.some((p) => p.days === chosenDays) ? chosenDays : (plans[0]?.days ?? null)
  const [usage, setUsage] = useState<Usage>('single')
  const [audience, setAudience] = useState<Audience>('share')
  const [activationsText, setActivationsText] = useState('2')
  const activations = usage === 'single' ? 1 : parseActivations(activationsText)
  const [shown, setShown] = useState<FarmingLink | null>(null)

  const fund = amount.value !== null && activations !== null ? linkFund(amount.value, activations) : null
  const overBalance = fund !== null && balance !== undefined && fund > balance
  const canCreate =
    amount.value !== null && days !== null && activations !== null && !overBalance && !farming.isSaving && farming.refusalFor(amount.value, days) === null

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    amount.setTouched(true)
    if (amount.value === null || days === null || activations === null || overBalance) return
    const link = await farming.create({ amount: amount.value, days, activations, multiUse: usage === 'multi', forMe: audience === 'me' })
    if (link) {
      amount.reset()
      setShown(link)
    }
  }

  return (
    <div className="screen-stack" data-testid="screen-farming">
      <ScreenHeader title={t('farming.title')} subtitle={t('farming.subtitle')} />
      <form className="card stack" onSubmit={(e) => void submit(e)} noValidate>
        <div className="summary">
          <Row label={t('farming.source')} value={t(`farming.source.${source}`)} testId="farming-source" strong />
        </div>
        <Section title={t('farming.term')}>
          {plans.length > 0 ? (
            <DayChips label={t('farming.term')} days={plans.map((p) => p.days)} value={days} onChange={setChosenDays} format={(n) => t('common.days', { n })} testIdPrefix="farming-plan" />
          ) : (
            <p className="muted" data-testid="farming-no-plans">
              {t('farming.noPlans')}
            </p>
          )}
        </Section>
        <InputAmount field={amount} label={t('farming.amount')} max={balance ?? 0} testId="farming-amount" />
        <Section title={t('farming.usage')}>
          <Segmented<Usage>
            label={t('farming.usage')}
            value={usage}
            onChange={setUsage}
            options={[
              { value: 'single', label: t('farming.single'), testId: 'farming-single' },
              { value: 'multi', label: t('farming.multi'), testId: 'farming-multi' },
            ]}
          />
          {usage === 'multi' ? (
            <div className={`field${activations === null ? ' has-error' : ''}`}>
              <label className="field__label" htmlFor={activationsId}>
                {t('farming.activations')}
              </label>
              <div className="field__control">
                <input
                  id={activationsId}
                  className="field__input num"
                  type="text"
                  inputMode="numeric"
                  value={activationsText}
                  onChange={(e) => setActivationsText(e.target.value)}
                  aria-invalid={activations === null ? true : undefined}
                  data-testid="farming-activations"
                />
              </div>
              {activations === null ? (
                <p className="field__error" role="alert">
                  {t('farming.activationsInvalid')}
                </p>
              ) : null}
            </div>
          ) : null}
        </Section>
        <Section title={t('farming.audience')}>
          <Segmented<Audience>
            label={t('farming.audience')}
            value={audience}
            onChange={setAudience}
            options={[
              { value: 'me', label: t('farming.forMe'), testId: 'farming-for-me' },
              { value: 'share', label: t('farming.toShare'), testId: 'farming-to-share' },
            ]}
          />
        </Section>
        {fund !== null ? (
          <div className="summary">
            <Row label={t('farming.total')} value={`${formatAmount(fund)} AXIOM`} testId="farming-fund" />
            {overBalance ? (
              <p className="field__error" role="alert" data-testid="farming-over-balance">
                {t('farming.overBalance', { amount: formatAmount(fund) })}
              </p>
            ) : null}
          </div>
        ) : null}
        <FarmingPreview amount={amount.value} days={days} />
        <Button type="submit" block busy={farming.isSaving} disabled={!canCreate} testId="farming-create">
          {farming.isSaving ? t('farming.creating') : t('farming.create')}
        </Button>
      </form>
      <Section title={t('farming.links')}>
        <FarmingLinksList onShow={setShown} />
      </Section>
      <FarmingLinksModal link={shown} onClose={() => setShown(null)} />
    </div>
  )
})
