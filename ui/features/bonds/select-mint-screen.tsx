import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import { Link, useSearchParams } from 'wouter'
import { dailyPercent, formatAmount, type Mint, perDayRate, shownNumber } from '../../../core/index.ts'
import { useBondsState } from '../app-states.ts'
import { useNavigate } from '../../hooks/navigation.ts'
import { Button } from '../../components/button.tsx'
import { EmptyState } from '../../components/empty-state.tsx'
import { BondIcon } from '../../components/icons.tsx'
import { RewardText } from './reward-text.tsx'
import { StakeQuoteState } from './stake-quote-state.ts'
import { Row, ScreenHeader, Section } from '../../components/section.tsx'
import { Spinner } from '../../components/spinner.tsx'
import { useT } from '../../i18n/use-t.ts'

function MintOption({ mint, selected, onSelect }: { readonly mint: Mint; readonly selected: boolean; readonly onSelect: () => void }) {
  const t = useT()
  const id = mint.id
  return (
    <li role="none">
      <button type="button" role="radio" aria-checked={selected} className={`option${selected ? ' is-active' : ''}`} onClick={onSelect} data-testid={`select-mint-${id}`}>
        <span className="option__radio" aria-hidden="true" />
        <span className="option__main">
          <span className="option__title">{t('mint.title', { id: shownNumber(mint) })}</span>
          <span className="option__meta">{t('common.days', { n: mint.tariff_days })}</span>
        </span>
        <span className="option__amount num">{formatAmount(mint.total_amount || mint.amount_token)} AXIOM</span>
      </button>
    </li>
  )
}

/** The server's terms for staking `mint` (GET /staking/calculate): what the stake will earn. */
const StakeSummary = observer(function StakeSummary({ quotes, mint }: { readonly quotes: StakeQuoteState; readonly mint: Mint }) {
  const t = useT()
  const quote = quotes.quoteFor(mint.id)
  if (!quote)
    return quotes.status === 'failed' ? (
      <div className="summary" data-testid="stake-quote-failed" role={quotes.refusal !== null ? 'alert' : undefined}>
        <p className="muted">{t('staking.quoteFailed')}</p>
        {quotes.refusal !== null ? (
          <p className="summary__refusal" data-testid="stake-quote-error">
            {quotes.refusal}
          </p>
        ) : null}
        <Button variant="secondary" size="sm" onClick={() => void quotes.preview(mint.id)} testId="stake-quote-retry">
          {t('staking.quoteRetry')}
        </Button>
      </div>
    ) : (
      <div className="summary" aria-busy="true" data-testid="stake-quote-loading">
        <div className="summary__loading">
          <Spinner size={16} /> <span>{t('staking.quoteLoading')}</span>
        </div>
      </div>
    )
  return (
    <div className="summary" data-testid="stake-summary">
      <Row label={t('mint.amount')} value={`${formatAmount(quote.total_amount)} AXIOM`} testId="stake-summary-amount" strong />
      <Row label={t('mint.term')} value={t('common.days', { n: quote.tariff_days })} testId="stake-summary-days" />
      <Row label={t('bond.dailyRate')} value={t('common.percentPerDay', { value: formatAmount(dailyPercent(quote), 4) })} testId="stake-summary-rate" />
      <Row label={t('bond.dailyIncome')} value={t('common.tokensPerDay', { amount: formatAmount(perDayRate(quote), 4) })} testId="stake-summary-per-day" />
      <Row label={t('mint.maxReward')} value={`${formatAmount(quote.max_reward, 4)} AXIOM`} testId="stake-summary-max" />
      <Row label={t('staking.bondReward')} value={<><RewardText record={mint} testId="stake-summary-bond-reward" /> AXIOM</>} />
    </div>
  )
})

/**
 * Route /staking/select (select-mint): pick an active bond, see the server's terms for staking it
 * (spec §7: select mint → calculate → create), stake it.
 */
export const SelectMintScreen = observer(function SelectMintScreen() {
  const bonds = useBondsState()
  const t = useT()
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const [picked, setPicked] = useState<string | null>(params.get('mint'))
  const mints = bonds.bondList.stakeableMints
  const mint = mints.find((m) => m.id === picked) ?? null
  const mintId = mint?.id ?? null
  // The server's terms for staking the mint picked.
  const [quotes] = useState(() => new StakeQuoteState(bonds, (id) => bonds.bondList.isBusy(id)))

  useEffect(() => {
    if (mintId !== null) void quotes.preview(mintId)
  }, [quotes, mintId])

  const confirm = async () => {
    if (!mint || !quotes.canStake(mint.id)) return
    const ok = await bonds.stakeList.stake(mint.id)
    if (ok) navigate('/staking', { replace: true })
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
              <MintOption key={m.id} mint={m} selected={m.id === picked} onSelect={() => setPicked(m.id)} />
            ))}
          </ul>
          <Section title={t('staking.summary')}>{mint ? <StakeSummary quotes={quotes} mint={mint} /> : <p className="muted">{t('staking.pick')}</p>}</Section>
          <Button block busy={mint ? bonds.bondList.isBusy(mint.id) : false} disabled={!quotes.canStake(mintId)} onClick={() => void confirm()} testId="stake-confirm">
            {mint && bonds.bondList.isBusy(mint.id) ? t('staking.staking') : t('staking.confirm')}
          </Button>
        </>
      )}
    </div>
  )
})
