import { observer } from 'mobx-react-lite'
import { type FormEvent, useEffect, useId, useState } from 'react'
import { activePlansByDays, type FarmingLink, formatAmount, type FundingSource } from '../../../core/index.ts'
import { useStates } from '../../app/contexts.ts'
import { Button } from '../../components/button.tsx'
import { DayChips } from '../../components/chips.tsx'
import { InputAmount, useAmountField } from '../../components/input-amount.tsx'
import { Row, ScreenHeader, Section } from '../../components/section.tsx'
import { Segmented } from '../../components/segmented.tsx'
import { useDebouncedEffect } from '../../hooks/use-debounced-effect.ts'
import { useT } from '../../i18n/use-t.ts'
import { FarmingLinksModal } from '../../modals/farming-links-modal.tsx'
import { FarmingLinksList } from './farming-links-list.tsx'
import '../../styles/forms.css'

type Usage = 'single' | 'multi'
type Audience = 'me' | 'share'

const parseActivations = (text: string): number | null => (/^\d+$/.test(text.trim()) && Number(text) >= 1 ? Number(text) : null)

const FarmingPreview = observer(function FarmingPreview({ amount, days }: { readonly amount: number | null; readonly days: number | null }) {
  const { farming } = useStates()
  const t = useT()
  useDebouncedEffect(() => {
    if (amount !== null && days !== null) void farming.preview(amount, days)
  }, [amount, days])
  const q = farming.quote
  if (amount === null || days === null || !q) return null
  return (
    <div className="summary" data-testid="farming-preview">
      <Row label={t('bond.dailyReward')} value={`${formatAmount(q.daily_reward, 4)}%`} />
      <Row label={t('bond.maxReward')} value={`${formatAmount(q.max_reward, 4)} AXIOM`} />
      <Row label={t('bond.expectedReward')} value={`${formatAmount(q.expected_reward, 4)} AXIOM`} strong />
    </div>
  )
})

/**
 * Re-bonding (routes /re-bonding, /referral/re-bonding, /tasks/re-bonding): a farming link paid
 * from the referral or task balance, single or multi-use, for me or to share; and the links list.
 */
export const FarmingScreen = observer(function FarmingScreen({ source }: { readonly source: FundingSource }) {
  const { farming, session } = useStates()
  const t = useT()
  const activationsId = useId()
  useEffect(() => {
    void farming.chooseSource(source)
  }, [farming, source])

  const balance = farming.source === 'referral' ? session.user?.referral_balance : session.user?.task_balance
  const amount = useAmountField(balance ?? 0)
  const plans = activePlansByDays(farming.plans)
  const [chosenDays, setChosenDays] = useState<number | null>(null)
  const days = chosenDays !== null && plans.some((p) => p.days === chosenDays) ? chosenDays : (plans[0]?.days ?? null)
  const [usage, setUsage] = useState<Usage>('single')
  const [audience, setAudience] = useState<Audience>('share')
  const [activationsText, setActivationsText] = useState('2')
  const activations = usage === 'single' ? 1 : parseActivations(activationsText)
  const [shown, setShown] = useState<FarmingLink | null>(null)

  const canCreate = amount.value !== null && days !== null && activations !== null && !farming.isCreating

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    amount.setTouched(true)
    if (amount.value === null || days === null || activations === null) return
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
        <Section title={t('farming.source')}>
          <Segmented<FundingSource>
            label={t('farming.source')}
            value={farming.source}
            onChange={(s) => void farming.chooseSource(s)}
            options={[
              { value: 'referral', label: t('farming.source.referral'), testId: 'farming-source-referral' },
              { value: 'task', label: t('farming.source.task'), testId: 'farming-source-task' },
            ]}
          />
        </Section>
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
        <FarmingPreview amount={amount.value} days={days} />
        <Button type="submit" block busy={farming.isCreating} disabled={!canCreate} testId="farming-create">
          {farming.isCreating ? t('farming.creating') : t('farming.create')}
        </Button>
      </form>
      <Section title={t('farming.links')}>
        <FarmingLinksList onShow={setShown} />
      </Section>
      <FarmingLinksModal link={shown} onClose={() => setShown(null)} />
    </div>
  )
})
