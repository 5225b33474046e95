import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Candle } from '../../core/index.ts'
import { chartCandles, decimalText, niceStep, previewGeometry, type ShapeCache } from '../../ui/features/market/candle-preview-geometry.ts'

/**
 * The dashboard's first drawing of the candles (ui/features/market/candle-preview.tsx). Each shape of
 * its paths is read back from the SVG path text by hand: "M x y h w v h h -w Z", a wick then a body.
 */
interface Shape {
  readonly x: number
  readonly y: number
  readonly w: number
  readonly h: number
}
const shapesOf = (d: string): Shape[] =>
  [...d.matchAll(/M(-?[\d.]+) (-?[\d.]+)h(-?[\d.]+)v(-?[\d.]+)h(-?[\d.]+)Z/g)].map((m) => {
    expect(Number(m[5])).toBe(-Number(m[3]))
    return { x: Number(m[1]), y: Number(m[2]), w: Number(m[3]), h: Number(m[4]) }
  })

const price = fc.integer({ min: 1, max: 10_000_000 }).map((n) => n / 1_000_000)
const candle = (time: fc.Arbitrary<number>) =>
  fc.tuple(time, price, price, price, price).map(([t, a, b, c, d]): Candle => {
    const [low, x, y, high] = [a, b, c, d].sort((p, q) => p - q) as [number, number, number, number]
    return { time: t, open: x, close: y, low, high } as Candle
  })
const candles = fc.array(candle(fc.integer({ min: 0, max: 500 }).map((i) => 1_700_000_000 + i * 300)), { minLength: 1, maxLength: 150 })
const box = fc.tuple(fc.integer({ min: 40, max: 1200 }), fc.integer({ min: 40, max: 400 }))

describe('the first drawing of the candles', () => {
  it('draws each candle once (one per time, the last given for a time), rising in one path and falling in the other', () => {
    fc.assert(
      fc.property(candles, box, (given, [w, h]) => {
        const shown = chartCandles(given)
        const byTime = new Map(given.map((c) => [c.time, c]))
        expect(shown).toEqual([...byTime.values()].sort((a, b) => a.time - b.time))
        const g = previewGeometry(given, w, h)
        // The last candle is a path of its own (the live candle redraws it alone).
        const rising = shown.slice(0, -1).filter((c) => c.close >= c.open).length
        expect(shapesOf(g.up)).toHaveLength(2 * rising)
        expect(shapesOf(g.down)).toHaveLength(2 * (shown.length - 1 - rising))
        expect(shapesOf(g.last!.shape)).toHaveLength(2)
      }),
    )
  })

  it('keeps every shape and label inside its box, the highest high a fifth from the top and the lowest low a tenth from the bottom', () => {
    fc.assert(
      fc.property(candles, box, (given, [w, h]) => {
        const g = previewGeometry(given, w, h)
        const shapes = [...shapesOf(g.up), ...shapesOf(g.down), ...shapesOf(g.last!.shape)]
        for (const s of shapes) {
          expect(s.x).toBeGreaterThanOrEqual(-0.01)
          expect(s.x + s.w).toBeLessThanOrEqual(w + 0.01)
          expect(s.y).toBeGreaterThanOrEqual(-0.01)
          expect(s.y + s.h).toBeLessThanOrEqual(h + 0.51)
        }
        const shown = chartCandles(given)
        const highest = Math.max(...shown.map((c) => c.high))
        const lowest = Math.min(...shown.map((c) => c.low))
        const tops = Math.min(...shapes.map((s) => s.y))
        const bottoms = Math.max(...shapes.map((s) => s.y + s.h))
        if (highest > lowest) {
          expect(tops).toBeCloseTo(0.2 * h, 1)
          // (A flat shape is half a unit high, so that it shows: the lowest may end that much lower.)
          expect(bottoms).toBeGreaterThanOrEqual(0.9 * h - 0.01)
          expect(bottoms).toBeLessThanOrEqual(0.9 * h + 0.51)
        }
        for (const p of g.prices) expect(p.y > 0.04 && p.y < 0.96).toBe(true)
        for (const t of g.times) expect(t.x > 0 && t.x < 1).toBe(true)
      }),
    )
  })

  it('names round prices, higher ones higher up, and the last candle’s close on the price line', () => {
    fc.assert(
      fc.property(candles, box, (given, [w, h]) => {
        const g = previewGeometry(given, w, h)
        const last = chartCandles(given).at(-1)!
        expect(g.last).toMatchObject({ price: last.close, up: last.close >= last.open })
        for (let i = 1; i < g.prices.length; i++) {
          expect(Number(g.prices[i]!.price)).toBeGreaterThan(Number(g.prices[i - 1]!.price))
          expect(g.prices[i]!.y).toBeLessThan(g.prices[i - 1]!.y)
        }
        // No label under the last price's.
        for (const p of g.prices) expect(Math.abs(p.y - g.last!.y) * h).toBeGreaterThanOrEqual(18 - 1e-9)
      }),
    )
  })

  it('draws the same with its shape cache as without, when the live candle changes the last candle or the range', () => {
    fc.assert(
      fc.property(candles, box, candle(fc.constant(0)), (given, [w, h], live) => {
        const cache: ShapeCache = new WeakMap()
        const list = chartCandles(given)
        expect(previewGeometry(list, w, h, cache)).toEqual(previewGeometry(list, w, h))
        // The live candle replaces the last one, in place (as MarketState does): its prices may widen the range.
        const next = [...list.slice(0, -1), { ...live, time: list.at(-1)!.time }]
        expect(previewGeometry(next, w, h, cache)).toEqual(previewGeometry(next, w, h))
        expect(previewGeometry(next, w + 1, h, cache)).toEqual(previewGeometry(next, w + 1, h))
      }),
    )
  })

  it('steps prices by 1, 2 or 5 times a power of ten, each label a whole number of steps written exactly', () => {
    expect(niceStep(0.0012, 8)).toEqual({ digit: 2, exponent: -4 })
    expect(niceStep(1, 4)).toEqual({ digit: 5, exponent: -1 })
    expect(niceStep(73, 8)).toEqual({ digit: 1, exponent: 1 })
    expect(niceStep(0.3, 3)).toEqual({ digit: 1, exponent: -1 })
    // 158 × 0.0002 is 0.031600000000000003 in floating point: the label is 0.0316.
    expect(decimalText(158 * 2, -4)).toBe('0.0316')
    expect(decimalText(7, -3)).toBe('0.007')
    expect(decimalText(15, 1)).toBe('150')
    expect(decimalText(-25, -1)).toBe('-2.5')
    fc.assert(
      fc.property(candles, box, (given, [w, h]) => {
        // Every label is a decimal whose value is a whole number of the same round step.
        const labels = previewGeometry(given, w, h).prices.map((p) => p.price)
        for (const l of labels) expect(l).toMatch(/^-?\d+(\.\d+)?$/)
      }),
    )
  })

  it('draws nothing without candles or room', () => {
    expect(previewGeometry([], 300, 200)).toEqual({ up: '', down: '', prices: [], times: [], last: null })
    expect(previewGeometry([{ time: 1, open: 1, high: 2, low: 0.5, close: 1.5 } as Candle], 0, 200).up).toBe('')
  })
})
