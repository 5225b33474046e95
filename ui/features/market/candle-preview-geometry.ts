import type { Candle } from '../../../core/index.ts'

/**
 * The candles as the dashboard first draws them, by the app's own code: two SVG paths (rising and
 * falling candles, each candle a wick and a body) in a box of `width` × `height` user units, and the
 * prices and times the axes name. lightweight-charts takes over on the user's first touch
 * (candle-chart-area.tsx); until then this is the chart, at a fraction of the library's first draw.
 * It lays the candles out as the library's chart does after `fitContent()`: one slot per candle
 * across the width, the price range between a fifth of the height at the top and a tenth at the bottom.
 */
export interface PreviewGeometry {
  /** Rising (close ≥ open) candles' wicks and bodies, as one path: every candle but the last. */
  readonly up: string
  /** Falling candles', every candle but the last. */
  readonly down: string
  /** Price labels: the price (decimal text) and its height from the top, as a fraction of the box (0 top, 1 bottom). */
  readonly prices: ReadonlyArray<{ readonly price: string; readonly y: number }>
  /** Time labels: a candle's time and its centre from the left, as a fraction of the box. */
  readonly times: ReadonlyArray<{ readonly time: number; readonly x: number }>
  /**
   * The last candle: its wick and body as a path of their own (the live candle changes it every
   * second, the others stay as they were), whether it rose, and its close and that close's height
   * (a fraction of the box): the price line.
   */
  readonly last: { readonly shape: string; readonly price: number; readonly y: number; readonly up: boolean } | null
}

/** The price range's margins, as lightweight-charts' default scale margins (top 0.2, bottom 0.1). */
const TOP_MARGIN = 0.2
const BOTTOM_MARGIN = 0.1
/** A body's share of its candle's slot (the rest is the gap between two candles). */
const BODY_SHARE = 0.7
/** A price label's height (12 px text and its padding): the room kept around the last price's label. */
const LABEL_HEIGHT = 18

/** Ascending and one candle per time (the last given for a time wins), as the chart takes them. */
export const chartCandles = (candles: ReadonlyArray<Candle>): Candle[] => {
  const byTime = new Map<number, Candle>()
  for (const c of candles) byTime.set(c.time, c)
  return [...byTime.values()].sort((a, b) => a.time - b.time)
}

/** A round step (1, 2 or 5 times a power of ten) that cuts `span` into about `parts` parts: `digit` × 10^`exponent`. */
export const niceStep = (span: number, parts: number): { readonly digit: number; readonly exponent: number } => {
  const raw = span / parts
  const exponent = Math.floor(Math.log10(raw))
  const digit = [1, 2, 5].find((m) => m * 10 ** exponent >= raw)
  return digit ? { digit, exponent } : { digit: 1, exponent: exponent + 1 }
}

/** `units` × 10^`exponent` as decimal text, exactly (a tick's price is a whole number of steps, never float noise). */
export const decimalText = (units: number, exponent: number): string => {
  const sign = units < 0 ? '-' : ''
  const digits = String(Math.abs(units))
  if (exponent >= 0) return sign + digits + '0'.repeat(exponent)
  const padded = digits.padStart(1 - exponent, '0')
  return `${sign}${padded.slice(0, padded.length + exponent)}.${padded.slice(padded.length + exponent)}`
}

/** Candles' shapes already laid out, by candle, with what they were laid out for. */
export type ShapeCache = WeakMap<Candle, { readonly key: string; readonly shape: string }>

/**
 * The drawing of `given` in `width` × `height`. With `cache`, a candle laid out before in the same
 * place, range and box keeps its shape text: a second's live candle then lays out one candle, not all.
 */
export const previewGeometry = (given: ReadonlyArray<Candle>, width: number, height: number, cache?: ShapeCache): PreviewGeometry => {
  const candles = chartCandles(given)
  if (candles.length === 0 || width <= 0 || height <= 0) return { up: '', down: '', prices: [], times: [], last: null }
  let low = Infinity
  let high = -Infinity
  for (const c of candles) {
    low = Math.min(low, c.low, c.open, c.close)
    high = Math.max(high, c.high, c.open, c.close)
  }
  // A flat range (one price throughout) is drawn mid-height, as the library does.
  const span = high - low || Math.abs(high) * 0.01 || 1
  const mid = (high + low) / 2
  const bottom = high - low ? low : mid - span / 2
  const top = high - low ? high : mid + span / 2
  const inner = height * (1 - TOP_MARGIN - BOTTOM_MARGIN)
  const yOf = (price: number) => height * TOP_MARGIN + ((top - price) / (top - bottom)) * inner
  const slot = width / candles.length
  const body = Math.max(slot * BODY_SHARE, Math.min(slot, 1))
  const wick = Math.min(Math.max(slot * 0.12, 0.5), body)
  const r = (n: number) => Math.round(n * 100) / 100
  // A flat shape (a doji's body, a wick without range) is half a unit high, so that it still shows.
  const rect = (x: number, y: number, w: number, h: number) => `M${r(x)} ${r(y)}h${r(w)}v${r(Math.max(h, 0.5))}h${-r(w)}Z`
  const shapeOf = (c: Candle, i: number) => {
    const key = `${i} ${candles.length} ${top} ${bottom} ${width} ${height}`
    const known = cache?.get(c)
    if (known?.key === key) return known.shape
    const centre = slot * (i + 0.5)
    const bodyTop = yOf(Math.max(c.open, c.close))
    const bodyBottom = yOf(Math.min(c.open, c.close))
    const shape = rect(centre - wick / 2, yOf(c.high), wick, yOf(c.low) - yOf(c.high)) + rect(centre - body / 2, bodyTop, body, bodyBottom - bodyTop)
    cache?.set(c, { key, shape })
    return shape
  }
  let up = ''
  let down = ''
  for (let i = 0; i < candles.length - 1; i++) {
    const c = candles[i]!
    if (c.close >= c.open) up += shapeOf(c, i)
    else down += shapeOf(c, i)
  }
  // Round prices inside the shown range, about eight of them, as the library's axis has them;
  // none where the last price's label covers it.
  const final = candles[candles.length - 1]!
  const lastY = yOf(final.close)
  const visibleTop = top + (top - bottom) * (TOP_MARGIN / (1 - TOP_MARGIN - BOTTOM_MARGIN))
  const visibleBottom = bottom - (top - bottom) * (BOTTOM_MARGIN / (1 - TOP_MARGIN - BOTTOM_MARGIN))
  const { digit, exponent } = niceStep(visibleTop - visibleBottom, 8)
  const step = digit * 10 ** exponent
  const prices: Array<{ price: string; y: number }> = []
  for (let k = Math.ceil(visibleBottom / step); k * step <= visibleTop; k++) {
    const y = yOf(k * step) / height
    // Not half outside the box.
    if (y > 0.04 && y < 0.96 && Math.abs(y * height - lastY) >= LABEL_HEIGHT) prices.push({ price: decimalText(k * digit, exponent), y })
  }
  // Four times, evenly spread over the candles, none at the very edges (a label there would be cut).
  const times: Array<{ time: number; x: number }> = []
  const count = Math.min(4, candles.length)
  for (let k = 0; k < count; k++) {
    const i = Math.floor(((k + 0.5) / count) * candles.length)
    times.push({ time: candles[i]!.time, x: (slot * (i + 0.5)) / width })
  }
  const last = { shape: shapeOf(final, candles.length - 1), price: final.close, y: lastY / height, up: final.close >= final.open }
  return { up, down, prices, times, last }
}
