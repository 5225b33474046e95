import { observer } from 'mobx-react-lite'
import { useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { formatAmount, type Mint, perDayRate } from '../../../core/index.ts'
import { useStates } from '../../app/contexts.ts'
import { Button } from '../../components/button.tsx'
import { EmptyState } from '../../components/empty-state.tsx'
import { BondIcon } from '../../components/icons.tsx'
import { RewardText } from '../../components/reward-text.tsx'
import { Row, ScreenHeader, Section } from '../../components/section.tsx'
import { useT } from '../../i18n/use-t.ts'

function MintOption({ mint, selected, onSelect }: { readonly mint: Mint; readonly selected: boolean; readonly onSelect: () => void }) {
  const t = useT()
  const id = String(mint.id)
  return (
    <li>
      <button type="button" role="radio" aria-checked={selected} className={`option${selected ? ' is-active' : ''}`} onClick={onSelect} data-testid={`select-mint-${id}`}>
        <span className="option__radio" aria-hidden="true" />
        <span className="option__main">
          <span className="option__title">{t('mint.title', { id })}</span>
          <span className="option__meta">{t('common.days', { n: mint.tariff_days })}</span>
        </span>
        <span className="option__amount num">{formatAmount(mint.total_amount || mint.amount_token)} AXIOM</span>
      </button>
    </li>
  )
}

/** Route /staking/select (select-mint): pick an active bond, see its figures, stake it. */
export const SelectMintScreen = observer(function SelectMintScreen() {
  const { bonds } = useStates()
  const t = useT()
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const [picked, setPicked] = useState<string | null>(params.get('mint'))
  const mints = bonds.stakeableMints
  const mint = mints.find((m) => String(m.id) === picked) ?? null

  const confirm = async () => {
    if (!mint) return
    const ok = await bonds.stake(mint.id)
    if (ok) void navigate('/staking', { replace: true })
  }

  return (
    <div className="screen-stack" data-testid="screen-select-mint">
      <ScreenHeader title={t('staking.selectTitle')} />
      {mints.length === 0 ? (
        <EmptyState
          icon={<BondIcon size={28} />}
          title={t('staking.noStakeable')}
          hint={t('staking.noStakeableHint')}
          testId="select-mint-empty"
          action={
            <Link to="/bond" className="btn btn--primary btn--md" data-testid="select-mint-buy">
              {t('dashboard.bondCta')}
            </Link>
          }
        />
      ) : (
        <>
          <ul className="option-list" role="radiogroup" aria-label={t('staking.selectTitle')}>
            {mints.map((m) => (
              <MintOption key={String(m.id)} mint={m} selected={String(m.id) === picked} onSelect={() => setPicked(String(m.id))} />
            ))}
          </ul>
          <Section title={t('staking.summary')}>
            {mint ? (
              <div className="summary" data-testid="stake-summary">
                <Row label={t('mint.amount')} value={`${formatAmount(mint.total_amount || mint.amount_token)} AXIOM`} strong />
                <Row label={t('mint.term')} value={t('common.days', { n: mint.tariff_days })} />
                <Row label={t('staking.rate')} value={`${formatAmount(perDayRate(mint), 4)} AXIOM`} />
                <Row label={t('mint.reward')} value={<RewardText record={mint} />} />
                <Row label={t('mint.maxReward')} value={`${formatAmount(mint.max_reward, 4)} AXIOM`} />
              </div>
            ) : (
              <p className="muted">{t('staking.pick')}</p>
            )}
          </Section>
          <Button block busy={mint ? bonds.isBusy(mint.id) : false} disabled={!mint} onClick={() => void confirm()} testId="stake-confirm">
            {mint && bonds.isBusy(mint.id) ? t('staking.staking') : t('staking.confirm')}
          </Button>
        </>
      )}
    </div>
  )
})
