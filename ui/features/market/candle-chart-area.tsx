import { observer } from 'mobx-react-lite'
import { lazy, Suspense, useCallback, useState } from 'react'
import { useMarketState } from '../app-states.ts'
import { useLinkOpener } from '../../lib/host-contexts.ts'
import { Spinner } from '../../components/spinner.tsx'
import { useT } from '../../i18n/use-t.ts'
import { CandlePreview } from './candle-preview.tsx'

/** lightweight-charts, with its code, made on the first touch. */
const CandleChart = lazy(() => import('./candle-chart.tsx').then((m) => ({ default: m.CandleChart })))

/** lightweight-charts' licence asks for a link to TradingView; the app gives it as text under the chart. */
const TRADINGVIEW_URL = 'https://www.tradingview.com/'

/**
 * The dashboard's price chart. It opens as the app's own drawing of the candles (candle-preview.tsx):
 * lightweight-charts' first draw is the longest work of a phone's open (600–890 ms of long tasks at
 * 4× CPU here, docs/benchmarks.md), for a chart most opens only look at. The first touch of the
 * chart (a finger or a click on it, a mouse over it) makes the library's chart, with its crosshair,
 * drags and zoom; the drawing stays until that chart has drawn, so the candles never blink out.
 * `data-animation` says, once that chart is made, whether it was made without animations.
 */
export const CandleChartArea = observer(function CandleChartArea() {
  const market = useMarketState()
  const t = useT()
  const openLink = useLinkOpener()
  const [touched, setTouched] = useState(false)
  /** null until the library's chart has drawn; then whether it was made without animations. */
  const [still, setStill] = useState<boolean | null>(null)
  const onDrawn = useCallback((reduced: boolean) => setStill(reduced), [])
  const touch = () => setTouched(true)

  const empty = market.candlesAnswered && market.candles.length === 0 && !market.isFetching
  return (
    <div
      className="chart"
      data-testid="candle-chart"
      data-animation={still === null ? undefined : still ? 'off' : 'on'}
      onPointerDown={touch}
      onPointerEnter={(e) => void (e.pointerType === 'mouse' && touch())}
      onWheel={touch}
    >
      {still === null ? (
        <div className="chart__canvas" role="img" aria-label={t('dashboard.chart')}>
          <CandlePreview />
        </div>
      ) : null}
      {touched ? (
        <Suspense fallback={null}>
          <CandleChart onDrawn={onDrawn} />
        </Suspense>
      ) : null}
      {!market.candlesAnswered || market.isFetching ? (
        <div className="chart__overlay">
          <Spinner size={24} />
        </div>
      ) : empty ? (
        <div className="chart__overlay chart__overlay--text" data-testid="chart-empty">
          {t('dashboard.chartEmpty')}
        </div>
      ) : null}
      <a
        className="chart__credit"
        href={TRADINGVIEW_URL}
        target="_blank"
        rel="noopener noreferrer"
        onClick={(e) => {
          e.preventDefault()
          openLink(TRADINGVIEW_URL)
        }}
        data-testid="chart-credit"
      >
        {t('dashboard.chartCredit')}
      </a>
    </div>
  )
})
