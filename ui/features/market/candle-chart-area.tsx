import { lazy, Suspense, useState } from 'react'
import { ChartSpinner } from './chart-spinner.tsx'
import { firstScreenPainted } from '../../lib/first-paint.ts'

/**
 * The app's drawing of the candles, the chart's spinner or empty words, and its credit line
 * (candle-preview.tsx), fetched once the first screen has painted: the candles are asked for after
 * that paint (app-state.ts), so their code takes no bytes from the first paint.
 */
const ChartLayers = lazy(() =>
  firstScreenPainted()
    .then(() => import('./candle-preview.tsx'))
    .then((m) => ({ default: m.ChartLayers })),
)
/** lightweight-charts, with its code, made on the first touch. */
const CandleChart = lazy(() => import('./candle-chart.tsx').then((m) => ({ default: m.CandleChart })))

/**
 * The dashboard's price chart. It opens as the app's own drawing of the candles (candle-preview.tsx):
 * lightweight-charts' first draw is the longest work of a phone's open (600–890 ms of long tasks at
 * 4× CPU here, docs/benchmarks.md), for a chart most opens only look at. The first touch of the
 * chart (a finger or a click on it, a mouse over it) makes the library's chart, with its crosshair,
 * drags and zoom; the drawing stays until that chart has drawn, so the candles never blink out.
 * `data-animation` says, once that chart is made, whether it was made without animations.
 */
export function CandleChartArea() {
  const [touched, setTouched] = useState(false)
  /** null until the library's chart has drawn; then whether it was made without animations. */
  const [still, setStill] = useState<boolean | null>(null)
  const touch = () => setTouched(true)

  return (
    <div
      className="chart"
      data-testid="candle-chart"
      data-animation={still === null ? undefined : still ? 'off' : 'on'}
      onPointerDown={touch}
      onPointerEnter={(e) => void (e.pointerType === 'mouse' && touch())}
      onWheel={touch}
    >
      {touched ? (
        <Suspense fallback={null}>
          <CandleChart onDrawn={setStill} />
        </Suspense>
      ) : null}
      {/* Over it, the drawing until the library's chart has drawn. */}
      <Suspense fallback={<ChartSpinner />}>
        <ChartLayers drawing={still === null} />
      </Suspense>
    </div>
  )
}
