import { observer } from 'mobx-react-lite'
import { useLayoutEffect, useMemo, useRef, useState } from 'react'
import { CANDLE_INTERVAL_SECONDS, formatAmount } from '../../../core/index.ts'
import { useMarketState } from '../app-states.ts'
import { useLanguage } from '../../i18n/use-t.ts'
import { tickMarkFormatter } from './chart-time-labels.ts'
import { previewGeometry } from './candle-preview-geometry.ts'

/** Room for the axes, as lightweight-charts leaves it: the prices on the right, the times under the candles. */
const PRICE_AXIS = 64
const TIME_AXIS = 28
const SECONDS_PER_DAY = 86_400

/**
 * The candles drawn by the app's own code (./candle-preview-geometry.ts): an SVG of two paths and
 * the axes' labels, sized to its box. The dashboard's chart until the user first touches it; it
 * follows the candles as they come (the interval's list and the live candle).
 */
export const CandlePreview = observer(function CandlePreview() {
  const market = useMarketState()
  const language = useLanguage()
  const box = useRef<HTMLDivElement>(null)
  const [size, setSize] = useState<{ readonly w: number; readonly h: number } | null>(null)

  useLayoutEffect(() => {
    const el = box.current
    if (!el) return
    const measure = () => {
      const { width, height } = el.getBoundingClientRect()
      setSize((s) => (s && s.w === width && s.h === height ? s : { w: width, h: height }))
    }
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(el)
    return () => observer.disconnect()
  }, [])

  const candles = market.candles
  const plotW = size ? Math.max(0, size.w - PRICE_AXIS) : 0
  const plotH = size ? Math.max(0, size.h - TIME_AXIS) : 0
  // Read in render, so that the observer follows every candle (the live one is replaced in place).
  const g = previewGeometry(candles, plotW, plotH)
  const daily = CANDLE_INTERVAL_SECONDS[market.interval] >= SECONDS_PER_DAY
  const timeLabel = useMemo(() => {
    const f = tickMarkFormatter(language)
    // A day's candle by its date (day and month), a shorter one by its time (the library's marks 2, 1 and 3).
    return (time: number) => (daily ? `${f(time as never, 2)} ${f(time as never, 1)}` : f(time as never, 3))
  }, [language, daily])

  return (
    <div ref={box} className="chart-preview" dir="ltr" data-testid="chart-preview" data-candles={candles.length}>
      {size && g.up + g.down !== '' ? (
        <>
          <svg className="chart-preview__plot" width={plotW} height={plotH} viewBox={`0 0 ${plotW} ${plotH}`} aria-hidden="true" focusable="false">
            <path
              className="chart-preview__grid"
              d={[...g.prices.map((p) => `M0 ${Math.round(p.y * plotH) + 0.5}H${plotW}`), ...g.times.map((t) => `M${Math.round(t.x * plotW) + 0.5} 0V${plotH}`)].join('')}
            />
            <path className="chart-preview__up" d={g.up} />
            <path className="chart-preview__down" d={g.down} />
            {g.last ? (
              <path className={`chart-preview__last chart-preview__last--${g.last.up ? 'up' : 'down'}`} d={`M0 ${Math.round(g.last.y * plotH) + 0.5}H${plotW}`} />
            ) : null}
          </svg>
          {g.prices.map((p) => (
            <span key={p.price} className="chart-preview__price num" style={{ top: p.y * plotH }}>
              {formatAmount(p.price, 6)}
            </span>
          ))}
          {g.last ? (
            <span className={`chart-preview__price chart-preview__price--last chart-preview__price--${g.last.up ? 'up' : 'down'} num`} style={{ top: g.last.y * plotH }}>
              {formatAmount(g.last.price, 6)}
            </span>
          ) : null}
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
