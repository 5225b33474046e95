import { observer } from 'mobx-react-lite'
import { CANDLE_INTERVALS, COIN, type CandleInterval } from '../../../core/index.ts'
import { useFirstFiguresStates, useMarketState } from '../app-states.ts'
import { Segmented } from '../../components/segmented.tsx'
import { Skeleton } from '../../components/spinner.tsx'
import { useT } from '../../i18n/use-t.ts'
import { changeTone, formatFixedAmount, formatSignedPercent } from '../../lib/format.ts'
import { shownPrice } from '../../state/first-figures.ts'
import { CandleChartArea } from './candle-chart-area.tsx'

function Change({ label, value, testId }: { readonly label: string; readonly value: number; readonly testId: string }) {
  return (
    <span className={`change change--${changeTone(value)}`} data-testid={testId}>
      <span className="change__label">{label}</span> <span className="num">{formatSignedPercent(value)}</span>
    </span>
  )
}

const PriceLine = observer(function PriceLine() {
  const states = useFirstFiguresStates()
  const t = useT()
  // Shown with the balances, in the same paint (first-figures.ts); until then, the kept dashboard's.
  const price = shownPrice(states)
  return (
    <div className="price">
      <div>
        <span className="price__label">{t('dashboard.price')}</span>
        <div className="price__value num" data-testid="price">
          {/* Six places always, so the figure keeps its width from tick to tick. */}
          {price ? `${formatFixedAmount(price.price, 6)} ${COIN}` : <Skeleton width={120} height={26} />}
        </div>
      </div>
      <div className="price__changes">
        {price ? (
          <>
            <Change label={t('dashboard.change24h')} value={price.price_change_24h} testId="price-change-24h" />
            <Change label={t('dashboard.change30d')} value={price.price_change_30d} testId="price-change-30d" />
          </>
        ) : (
          // The chips' room, kept while the price loads: on a narrow screen they wrap to a line of
          // their own, and the chart below would move down when they came.
          <>
            <Skeleton width={100} height={26} />
            <Skeleton width={100} height={26} />
          </>
        )}
      </div>
    </div>
  )
})

const IntervalTabs = observer(function IntervalTabs() {
  const market = useMarketState()
  const t = useT()
  return (
    <Segmented<CandleInterval>
      size="sm"
      label={t('dashboard.interval')}
      value={market.interval}
      onChange={(i) => void market.chooseInterval(i)}
      options={CANDLE_INTERVALS.map((i) => ({ value: i, label: t(`dashboard.interval.${i}`), testId: `interval-${i}` }))}
    />
  )
})

export function PriceCard() {
  return (
    <div className="card price-card" data-testid="price-card">
      <PriceLine />
      <IntervalTabs />
      <CandleChartArea />
    </div>
  )
}
