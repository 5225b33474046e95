import { observer } from 'mobx-react-lite'
import { useEffect, useMemo, useRef, useState } from 'react'
import { CANDLE_INTERVAL_SECONDS, formatAmount } from '../../../core/index.ts'
import { useMarketState } from '../app-states.ts'
import { useLanguage, useT } from '../../i18n/use-t.ts'
import { useLinkOpener } from '../../lib/host-contexts.ts'
import { tickMarkFormatter } from './chart-time-labels.ts'
import { ChartSpinner } from './chart-spinner.tsx'
import { previewGeometry, type ShapeCache } from './candle-preview-geometry.ts'

/** Room for the axes, as lightweight-charts leaves it: the prices on the right, the times under the candles. */
const PRICE_AXIS = 64
const TIME_AXIS = 28
const SECONDS_PER_DAY = 86_400

/**
 * The candles drawn by the app's own code (./candle-preview-geometry.ts): an SVG of the rising and
 * the falling candles' paths (the last candle's apart) and the axes' labels, sized to its box. The dashboard's chart until the user first touches it; it
 * follows the candles as they come (the interval's list and the live candle).
 */
export const CandlePreview = observer(function CandlePreview() {
  const market = useMarketState()
  const language = useLanguage()
  const box = useRef<HTMLDivElement>(null)
  const [size, setSize] = useState<{ readonly w: number; readonly h: number } | null>(null)

  // The box's size as the browser's layout gives it to a ResizeObserver (its first report comes with
  // the first frame): reading it here instead (getBoundingClientRect) would force the whole first
  // screen's layout inside React's commit, 120 ms at 4× CPU.
  useEffect(() => {
    const el = box.current
    if (!el) return
    const observer = new ResizeObserver(([entry]) => {
      if (!entry) return
      const { width, height } = entry.contentRect
      setSize((s) => (s && s.w === width && s.h === height ? s : { w: width, h: height }))
    })
    observer.observe(el)
    return () => observer.disconnect()
  }, [])

  const candles = market.candles
  const plotW = size ? Math.max(0, size.w - PRICE_AXIS) : 0
  const plotH = size ? Math.max(0, size.h - TIME_AXIS) : 0
  const shapes = useRef<ShapeCache>(new WeakMap())
  // Read in render, so that the observer follows every candle (the live one is replaced in place).
  const g = previewGeometry(candles, plotW, plotH, shapes.current)
  const daily = CANDLE_INTERVAL_SECONDS[market.interval] >= SECONDS_PER_DAY
  const timeLabel = useMemo(() => {
    const f = tickMarkFormatter(language)
    // A day's candle by its date (day and month), a shorter one by its time (the library's marks 2, 1 and 3).
    return (time: number) => (daily ? `${f(time as never, 2)} ${f(time as never, 1)}` : f(time as never, 3))
  }, [language, daily])

  return (
    <div ref={box} className="chart-preview" dir="ltr" data-testid="chart-preview">
      {size && g.last ? (
        <>
          <svg className="chart-preview__plot" width={plotW} height={plotH} viewBox={`0 0 ${plotW} ${plotH}`} aria-hidden="true" focusable="false">
            <path
              className="chart-preview__grid"
              d={[...g.prices.map((p) => `M0 ${Math.round(p.y * plotH) + 0.5}H${plotW}`), ...g.times.map((t) => `M${Math.round(t.x * plotW) + 0.5} 0V${plotH}`)].join('')}
            />
            <path className="chart-preview__up" d={g.up} />
            <path className="chart-preview__down" d={g.down} />
            {/* The last candle apart: the live candle redraws it alone. */}
            <path className={`chart-preview__${g.last.up ? 'up' : 'down'}`} d={g.last.shape} />
            <path className={`chart-preview__last chart-preview__last--${g.last.up ? 'up' : 'down'}`} d={`M0 ${Math.round(g.last.y * plotH) + 0.5}H${plotW}`} />
          </svg>
          {g.prices.map((p) => (
            <span key={p.price} className="chart-preview__price num" style={{ top: p.y * plotH }}>
              {formatAmount(p.price, 6)}
            </span>
          ))}
          <span className={`chart-preview__price chart-preview__price--last chart-preview__price--${g.last.up ? 'up' : 'down'} num`} style={{ top: g.last.y * plotH }}>
            {formatAmount(g.last.price, 6)}
          </span>
          {g.times.map((t) => (
            <span key={t.time} className="chart-preview__time num" style={{ left: t.x * plotW, top: plotH }}>
              {timeLabel(t.time)}
            </span>
          ))}
        </>
      ) : null}
    </div>
  )
})

/** lightweight-charts' licence asks for a link to TradingView; the app gives it as text under the chart. */
const TRADINGVIEW_URL = 'https://www.tradingview.com/'

/** The chart's credit line, under the drawing and under the library's chart alike. */
function ChartCredit() {
  const t = useT()
  const openLink = useLinkOpener()
  return (
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
  )
}

/** Over the chart: a spinner while the candles are asked for, or the words for an interval without any. */
const ChartOverlay = observer(function ChartOverlay() {
  const market = useMarketState()
  const t = useT()
  if (!market.candlesAnswered || market.isFetching) return <ChartSpinner />
  if (market.candles.length > 0) return null
  return (
    <div className="chart__overlay chart__overlay--text" data-testid="chart-empty">
      {t('dashboard.chartEmpty')}
    </div>
  )
})

/**
 * What the chart area (candle-chart-area.tsx) shows besides the library's chart: the drawing of the
 * candles while `drawing` (until the library's chart has drawn), the spinner or the empty words, the credit.
 */
export function ChartLayers({ drawing }: { readonly drawing: boolean }) {
  const t = useT()
  return (
    <>
      {drawing ? (
        <div className="chart__canvas" role="img" aria-label={t('dashboard.chart')}>
          <CandlePreview />
        </div>
      ) : null}
      <ChartOverlay />
      <ChartCredit />
    </>
  )
}
