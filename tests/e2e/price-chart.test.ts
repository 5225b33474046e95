import type { Page, Request } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { frameEval, nextUser, phone } from './helpers.ts'
import { launch, useStack } from './stack.ts'

/**
 * The dashboard's price chart as a user meets it: the candles drawn at once by the app's own code,
 * and lightweight-charts (its crosshair, drags and zoom) made by the first tap. The candles are
 * made by hand in GET /price/candles' wire form (spec §3), so each one drawn can be counted.
 */
const stack = useStack()

/**
 * `n` five-minute candles, rising on even places and falling on odd, the last closing at `lastClose`.
 * They end an hour from now, so the backend's live candle (older) changes none of them.
 */
const handCandles = (n: number, lastClose: string, endingIn = 3_600) => {
  const start = Math.floor(Date.now() / 300_000) * 300 + endingIn - (n - 1) * 300
  return Array.from({ length: n }, (_, i) => {
    const low = (0.03 + (i % 5) / 1000).toFixed(4)
    const high = (0.036 + (i % 5) / 1000).toFixed(4)
    const [open, close] = i % 2 === 0 ? [low, high] : [high, low]
    return { time: start + i * 300, open, high, low, close: i === n - 1 ? lastClose : close }
  })
}

/** The drawing's candles: each candle is two closed shapes (wick and body) in a path of its colour. */
const drawn = (page: Page) =>
  frameEval(page.frameLocator('iframe'), () => {
    const shapes = (cls: string) => [...document.querySelectorAll(`.${cls}`)].reduce((n, p) => n + (p.getAttribute('d')?.match(/Z/g) ?? []).length / 2, 0)
    return { rising: shapes('chart-preview__up'), falling: shapes('chart-preview__down'), last: document.querySelector('.chart-preview__price--last')?.textContent ?? null }
  })

describe('the price chart', () => {
  it('draws every candle at once without the chart library, and a tap makes the library’s chart of the same candles', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 390, height: 844 } })
    const scripts: string[] = []
    page.on('request', (r: Request) => void (r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname)))
    // 30 candles of 5 minutes, 12 for the hour (the last of those falling, to 0.0301).
    await page.route('**/price/candles?*', (route) => {
      const hourly = new URL(route.request().url()).searchParams.get('interval') === '1h'
      return route.fulfill({ json: hourly ? handCandles(12, '0.0301') : handCandles(30, '0.0365') })
    })
    const { app, errors } = await launch(stack, { user: nextUser(), page })
    await phone(page, 390)
    await app.getByTestId('chart-preview').locator('svg').waitFor()
    // 15 rising and 15 falling; the last (rising, to 0.0365) names the price on the axis, as the library's does.
    await expect.poll(() => drawn(page)).toEqual({ rising: 15, falling: 15, last: '0.0365' })
    // The dashboard has loaded and drawn its chart, and no chart library came with it.
    await app.getByTestId('mints-list').or(app.getByTestId('mints-empty')).first().waitFor()
    expect(scripts.filter((s) => /candle-chart|lightweight/.test(s))).toEqual([])

    // Another interval: its candles drawn in place of the others.
    await app.getByTestId('interval-1h').click()
    await expect.poll(() => drawn(page)).toEqual({ rising: 6, falling: 6, last: '0.0301' })

    // A tap: the library's chart comes and replaces the drawing, with the same candles.
    await app.getByTestId('candle-chart').click({ position: { x: 40, y: 40 } })
    await app.getByTestId('chart-live').locator('canvas').first().waitFor()
    await expect.poll(() => app.getByTestId('chart-preview').count()).toBe(0)
    expect(scripts.some((s) => /candle-chart/.test(s))).toBe(true)
    expect(await app.getByTestId('candle-chart').getAttribute('data-animation')).toBe('on')
    expect(errors).toEqual([])
    await page.close()
  })

  it('follows the live candle: the last candle moves with the price', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 390, height: 844 } })
    // The last hand-made candle is the current five minutes': the backend's live candle replaces it.
    await page.route('**/price/candles?*', (route) => route.fulfill({ json: handCandles(30, '0.0365', 0) }))
    const { app, errors } = await launch(stack, { user: nextUser(), page })
    await app.getByTestId('chart-preview').locator('svg').waitFor()
    // The price line's figure (six places) and the chart's last price (as few as it needs) agree.
    const agree = async () => {
      const price = (await app.getByTestId('price').textContent())!.split(' ')[0]!
      const last = (await drawn(page)).last
      return last !== null && last !== '0.0365' && Number(last) === Number(price)
    }
    await expect.poll(agree, { timeout: 10_000 }).toBe(true)
    expect((await drawn(page)).rising + (await drawn(page)).falling).toBe(30)
    expect(errors).toEqual([])
    await page.close()
  })

  it('says so when the interval has no candles, in place of a drawing', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 390, height: 844 } })
    await page.route('**/price/candles?*', (route) => route.fulfill({ json: [] }))
    // And no live candle either (it would start the chart).
    await page.routeWebSocket(/\/api\/ws\/candles/, () => undefined)
    const { app, errors } = await launch(stack, { user: nextUser(), page })
    await app.getByTestId('chart-empty').waitFor()
    expect(await app.getByTestId('chart-preview').locator('svg').count()).toBe(0)
    expect(errors).toEqual([])
    await page.close()
  })
})
