import type { IChartApi, UTCTimestamp } from 'lightweight-charts'
import { reaction, when } from 'mobx'
import { observer } from 'mobx-react-lite'
import { useEffect, useRef } from 'react'
import { type Candle, formatAmount } from '../../../core/index.ts'
import { useMarketState } from '../app-states.ts'
import { useLanguage, useT } from '../../i18n/use-t.ts'
import { nextTask } from '../../lib/next-task.ts'
import { reducedEffectsOf, usePlatformFeatures } from '../platform/platform-features-context.ts'
import { chartCandles } from './candle-preview-geometry.ts'
import { crosshairTimeFormatter, tickMarkFormatter } from './chart-time-labels.ts'

const toBar = (c: Candle) => ({ time: c.time as UTCTimestamp, open: c.open, high: c.high, low: c.low, close: c.close })

/**
 * A theme colour as the chart's canvas takes it: the CSS variable resolved to rgba() by painting it
 * (the app's text colours are color-mix() of the theme's, which the library does not parse).
 */
const cssColor = (el: Element, name: string, fallback: string): string => {
  const probe = document.createElement('span')
  probe.style.color = `var(${name}, ${fallback})`
  el.append(probe)
  const color = getComputedStyle(probe).color
  probe.remove()
  const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true })
  if (!ctx) return fallback
  ctx.fillStyle = color
  ctx.fillRect(0, 0, 1, 1)
  const [r = 0, g = 0, b = 0, a = 255] = ctx.getImageData(0, 0, 1, 1).data
  return `rgba(${r}, ${g}, ${b}, ${Math.round((a / 255) * 1000) / 1000})`
}

/**
 * lightweight-charts' chart of the candles, made when the user first touches the dashboard's chart
 * (candle-chart-area.tsx: until then the app's own drawing stands in). The library loads then (a
 * dynamic import, out of the initial bundle); the series is set from market.candles and updated from
 * market.liveCandle. `onDrawn` is told once the chart has drawn its candles, and whether it was made
 * without its animations (a slow phone, or reduced motion).
 */
export const CandleChart = observer(function CandleChart({ onDrawn }: { readonly onDrawn: (still: boolean) => void }) {
  const market = useMarketState()
  const t = useT()
  const language = useLanguage()
  const host = useRef<HTMLDivElement>(null)
  const platformFeatures = usePlatformFeatures()

  useEffect(() => {
    let disposed = false
    let chart: IChartApi | null = null
    const disposers: Array<() => void> = []
    // The chart made once the first candles have answered, with its series and their data in the same
    // task, so that it draws once (a chart made before its data draws empty, then again in full).
    // (A chart taken down before then never resolves it: its build ends there.)
    const candlesAnswered = new Promise<void>((resolve) => disposers.push(when(() => market.candlesAnswered, resolve)))
    const build = async () => {
      const still = reducedEffectsOf(platformFeatures)
      // Destructured from the import itself, so that the bundler keeps only what is used of the library.
      const { createChart, CandlestickSeries, ColorType } = await import('lightweight-charts')
      const reduced = await still
      await candlesAnswered
      await nextTask()
      const el = host.current
      if (disposed || !el) return
      const text = cssColor(el, '--hint', '#5b6b80')
      const grid = cssColor(el, '--grid', 'rgba(120,140,160,0.12)')
      chart = createChart(el, {
        autoSize: true,
        layout: {
          background: { type: ColorType.Solid, color: 'transparent' },
          textColor: text,
          fontFamily: getComputedStyle(el).fontFamily,
          // Its logo is a link inside the chart, which is one image to a screen reader: the credit is
          // a link of its own under the chart instead.
          attributionLogo: false,
        },
        grid: { vertLines: { color: grid }, horzLines: { color: grid } },
        rightPriceScale: { borderVisible: false },
        localization: { locale: language, timeFormatter: crosshairTimeFormatter(language) },
        // Fixed edges: the library keeps the outermost time labels inside the axis only on a fixed
        // edge; otherwise the leftmost one is cut in half on a phone.
        timeScale: { borderVisible: false, timeVisible: true, secondsVisible: false, fixLeftEdge: true, fixRightEdge: true, tickMarkFormatter: tickMarkFormatter(language) },
        crosshair: { horzLine: { labelBackgroundColor: '#2481cc' }, vertLine: { labelBackgroundColor: '#2481cc' } },
        handleScale: { axisPressedMouseMove: false },
        // A slow phone, or a user who asked for reduced motion: a swipe stops where the finger leaves it.
        kineticScroll: { touch: !reduced, mouse: false },
      })
      const series = chart.addSeries(CandlestickSeries, {
        upColor: '#26a65b',
        downColor: '#e5484d',
        wickUpColor: '#26a65b',
        wickDownColor: '#e5484d',
        borderVisible: false,
        // The axis and crosshair labels are amounts too: truncated, never rounded (spec §5).
        priceFormat: { type: 'custom', formatter: (price: number) => formatAmount(price, 6), minMove: 0.000001 },
      })
      const c = chart
      disposers.push(
        reaction(
          () => market.candles,
          (candles) => {
            series.setData(chartCandles(candles).map(toBar))
            c.timeScale().fitContent()
          },
          { fireImmediately: true },
        ),
        reaction(
          () => market.liveCandle,
          (bar) => {
            if (!bar) return
            try {
              series.update(toBar(bar))
            } catch {
              // An older bar than the last one (after an interval switch): the next setData corrects it.
            }
          },
        ),
      )
      onDrawn(reduced)
    }
    void build()
    return () => {
      disposed = true
      for (const d of disposers) d()
      chart?.remove()
    }
  }, [market, language, platformFeatures, onDrawn])

  return <div ref={host} className="chart__canvas" role="img" aria-label={t('dashboard.chart')} data-testid="chart-live" />
})
