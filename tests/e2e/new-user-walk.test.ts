import type { FrameLocator, Locator } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { amountOf, expectContains, expectText, frameEval, nextUser, phone, text } from './helpers.ts'
import { activeBond, api, launch, makeMember, useStack } from './stack.ts'

/** What a new user noticed on a first walk through the app, each seen as the user sees it. */
const stack = useStack()

/** Whether a label shows whole on one line: one line box, one line high, nothing cut off. */
const oneLine = (l: Locator) =>
  l.evaluate((el: HTMLElement) => {
    const range = document.createRange()
    range.selectNodeContents(el)
    const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)))
    const lineHeight = parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.3
    return { text: el.textContent, lines: lines.size, oneLineHigh: range.getBoundingClientRect().height < lineHeight * 1.5, whole: el.scrollWidth <= el.clientWidth }
  })

const mainBalance = async (app: FrameLocator) => amountOf(await text(app.getByTestId('balance-main-amount')))

describe('cancelling a bond', () => {
  it('says before confirming what comes back, what is kept and what reward is given up; then the reward stops', async () => {
    const user = nextUser()
    await makeMember(stack, user)
    const mintId = await activeBond(stack, user, 40, 30)
    const { app, page, errors } = await launch(stack, { user })
    await expectText(app.getByTestId(`mint-status-${mintId}`), 'Active')

    await app.getByTestId(`mint-cancel-${mintId}`).click()
    const sheet = app.getByTestId('cancel-bond-modal')
    await sheet.waitFor()
    await expectText(app.getByTestId('cancel-bond-refund'), '36.00 AXIOM')
    await expectText(app.getByTestId('cancel-bond-penalty'), '−4.00 AXIOM')
    // The reward so far, ticking with the bond's: what the backend forfeits.
    const given = app.getByTestId('cancel-bond-reward')
    // In the bond's first second its reward still reads 0: wait for the first tick, then the next.
    await expect.poll(async () => amountOf(await text(given)), { timeout: 4_000 }).toBeGreaterThan(0)
    const first = amountOf(await text(given))
    await expect.poll(async () => amountOf(await text(given)), { timeout: 4_000 }).toBeGreaterThan(first)

    await app.getByTestId('cancel-bond-confirm').click()
    await sheet.waitFor({ state: 'detached' })
    await expectText(app.getByTestId(`mint-status-${mintId}`), 'Cancelled')
    await expect.poll(() => mainBalance(app)).toBe(136)
    // A cancelled bond's reward is gone, and does not tick.
    const reward = app.getByTestId(`mint-reward-${mintId}`)
    await expectText(reward, 'Given up')
    await page.waitForTimeout(1_500)
    expect(await text(reward)).toBe('Given up')
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('bond numbers', () => {
  it("a user's first bond is Bond #1, whatever other users' bonds are numbered", async () => {
    const other = nextUser()
    await makeMember(stack, other)
    await activeBond(stack, other, 5, 30)
    await activeBond(stack, other, 6, 30)
    const user = nextUser()
    await makeMember(stack, user)
    const firstId = await activeBond(stack, user, 10, 30)
    const secondId = await activeBond(stack, user, 11, 30)
    expect(firstId).toBeGreaterThan(1)
    const { app, page, errors } = await launch(stack, { user })
    await expectContains(app.getByTestId(`mint-row-${firstId}`), 'Bond #1')
    await expectContains(app.getByTestId(`mint-row-${secondId}`), 'Bond #2')
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('farming links', () => {
  const createLink = (user: number, o: { amount: number; forMe: boolean }) =>
    api<{ id: number; activation_code: string }>(stack, user, 'POST', '/farming/create', {
      amount: o.amount, days: 10, count_activations: 1, from_ref_balance: false, from_task_balance: false, is_multilink: false, is_for_me: o.forMe,
    })

  it('a "for me" link is activated from its own sheet, and becomes the user\'s bond', async () => {
    const user = nextUser()
    await makeMember(stack, user)
    const link = await createLink(user, { amount: 8, forMe: true })
    const { app, page, errors } = await launch(stack, { user, path: '/re-bonding' })
    await app.getByTestId(`farming-link-show-${link.id}`).click()
    await app.getByTestId('farming-links-modal').waitFor()
    await app.getByTestId('farming-link-share').waitFor()
    await app.getByTestId('farming-link-activate').click()
    await expectText(app.getByTestId('activation-title'), 'You get it for 10 days')
    await expectText(app.getByTestId(`farming-link-status-${link.id}`), 'Used up')
    const mints = await api<{ items: Array<{ total_amount: string }> }>(stack, user, 'GET', '/mint/')
    expect(mints.items.map((m) => m.total_amount)).toEqual(['8'])
    expect(errors).toEqual([])
    await page.close()
  })

  it('a link to share offers no Activate to its author', async () => {
    const user = nextUser()
    await makeMember(stack, user)
    const link = await createLink(user, { amount: 4, forMe: false })
    const { app, page } = await launch(stack, { user, path: '/re-bonding' })
    await app.getByTestId(`farming-link-show-${link.id}`).click()
    await app.getByTestId('farming-link-share').waitFor()
    expect(await app.getByTestId('farming-link-activate').count()).toBe(0)
    await page.close()
  })

  it('a used-up link says so in words (spec §4), in the user\'s language, not "Status: REACHED"', async () => {
    const author = nextUser()
    await makeMember(stack, author)
    const link = await createLink(author, { amount: 3, forMe: false })
    const first = nextUser()
    await makeMember(stack, first)
    await api(stack, first, 'GET', `/farming/activation-status?activation_code=${link.activation_code}`)
    for (const [lang, title, status] of [
      ['en', 'We cannot activate this link.', 'All activations are used'],
      ['ru', 'Мы не можем активировать эту ссылку.', 'Все активации использованы'],
    ] as const) {
      const late = nextUser()
      const { app, page } = await launch(stack, { user: late, lang, path: `/?farm_code=${link.activation_code}` })
      await expectText(app.getByTestId('activation-title'), title)
      await expectText(app.getByTestId('activation-reached'), status)
      await page.close()
    }
  })

  it("an activated link's message reads in the user's language, not the backend's English", async () => {
    const author = nextUser()
    await makeMember(stack, author)
    for (const [lang, amount, message] of [
      ['en', 6, 'A bond of 6 AXIOM for 10 days is yours'],
      ['ru', 9, 'Бонд на 9 AXIOM на 10 дн. теперь ваш'],
    ] as const) {
      const link = await createLink(author, { amount, forMe: false })
      const friend = nextUser()
      await makeMember(stack, friend)
      const { app, page, errors } = await launch(stack, { user: friend, lang, path: `/?farm_code=${link.activation_code}` })
      await expectText(app.getByTestId('activation-message'), message)
      expect(errors).toEqual([])
      await page.close()
    }
  })
})

describe('small figures', () => {
  it('a tiny amount in the history reads non-zero, with as many places as it needs (4 or 6)', async () => {
    const user = nextUser()
    await makeMember(stack, user)
    await stack.server.admin.credit(user, '0.00004')
    const ops = await api<{ items: Array<{ id: number; amount: string }> }>(stack, user, 'GET', '/operations/history')
    const tiny = ops.items.find((o) => o.amount === '0.00004')!
    const { app, page, errors } = await launch(stack, { user, path: '/history' })
    await expectContains(app.getByTestId(`operation-${tiny.id}`), '+0.00004')
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('the copy toast on the Referral screen', () => {
  it('does not cover Invite Friends', async () => {
    const user = nextUser()
    const { app, page } = await launch(stack, { user, path: '/referral' })
    await phone(page, 390)
    await app.getByTestId('copy-referral-link').click()
    const toast = app.getByTestId('toast-success')
    await toast.waitFor()
    const [a, b] = await Promise.all([toast.boundingBox(), app.getByTestId('invite-friends').boundingBox()])
    expect(a && b).toBeTruthy()
    const overlap = a!.x < b!.x + b!.width && b!.x < a!.x + a!.width && a!.y < b!.y + b!.height && b!.y < a!.y + a!.height
    expect(overlap).toBe(false)
    // And the button takes a tap while the toast shows.
    const hit = await app.getByTestId('invite-friends').evaluate((el) => {
      const r = el.getBoundingClientRect()
      return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2))
    })
    expect(hit).toBe(true)
    await page.close()
  })
})

describe('Russian on a phone', () => {
  // 390 px is an iPhone; 360 px the narrowest common Android phone.
  it.each([390, 360])('at %i px the Referral header and the Sell source switch keep their labels on one line', async (width) => {
    const user = nextUser()
    const { app, page, errors } = await launch(stack, { user, lang: 'ru', path: '/referral' })
    await phone(page, width)
    await app.locator('html').evaluate(() => document.fonts.ready)
    const invite = app.getByTestId('invite-friends').locator('span')
    await expectText(invite, 'Пригласить друзей')
    expect(await oneLine(invite)).toMatchObject({ lines: 1, oneLineHigh: true, whole: true })
    expect(await frameEval(app, () => document.documentElement.scrollWidth <= innerWidth)).toBe(true)

    await app.getByTestId('link-referral-sell').click()
    const source = app.getByTestId('sell-from-referral')
    await expectText(source, 'Реферальный баланс')
    expect(await oneLine(source)).toMatchObject({ lines: 1, oneLineHigh: true, whole: true })
    expect(await oneLine(app.getByTestId('sell-from-main'))).toMatchObject({ lines: 1, oneLineHigh: true, whole: true })
    expect(errors).toEqual([])
    await page.close()
  })

  it.each([390, 360])('at %i px every label of the chart is inside the chart: the app\'s drawing first, then the library\'s chart a tap makes', async (width) => {
    const user = nextUser()
    // In UTC, so the hand-made candles' midnight is the page's midnight too.
    const page = await stack.browser.newPage({ viewport: { width, height: 844 }, timezoneId: 'UTC' })
    // Where the chart writes its labels: each fillText's left and right edge on its canvas, in canvas
    // pixels, the canvas's width then, and which canvas it was.
    type Label = { text: string; left: number; right: number; width: number; canvas: number }
    await page.addInitScript(() => {
      const canvases: HTMLCanvasElement[] = []
      const drawn: Label[] = []
      Object.assign(window, { __labels: drawn, __canvases: canvases })
      const fillText = CanvasRenderingContext2D.prototype.fillText
      CanvasRenderingContext2D.prototype.fillText = function (this: CanvasRenderingContext2D, text: string, x: number, y: number, max?: number) {
        const w = this.measureText(text).width
        const start = this.textAlign === 'center' ? x - w / 2 : this.textAlign === 'right' || this.textAlign === 'end' ? x - w : x
        const m = this.getTransform()
        if (!canvases.includes(this.canvas)) canvases.push(this.canvas)
        drawn.push({ text, left: m.a * start + m.e, right: m.a * (start + w) + m.e, width: this.canvas.width, canvas: canvases.indexOf(this.canvas) })
        return max === undefined ? fillText.call(this, text, x, y) : fillText.call(this, text, x, y, max)
      }
    })
    // Candles made by hand (GET /price/candles' wire form): four hours of 5-minute bars whose first
    // opens at midnight, so the leftmost bar carries the strongest time label (the day), centred on
    // the chart's left edge unless the chart keeps it inside.
    const midnight = Math.floor(Date.now() / 86_400_000) * 86_400 - 86_400
    const candles = Array.from({ length: 48 }, (_, i) => {
      const price = (1 + (i % 7) / 100).toFixed(2)
      return { time: midnight + i * 300, open: price, high: '1.10', low: '0.95', close: price }
    })
    await page.route('**/price/candles?*', (route) => route.fulfill({ json: candles }))
    const { app, errors } = await launch(stack, { user, lang: 'ru', page })
    await phone(page, width)
    // The chart opens as the app's own drawing: its price and time labels are inside the chart's box.
    await app.getByTestId('chart-preview').locator('svg').waitFor()
    await expect.poll(() => app.getByTestId('chart-preview').locator('.chart-preview__time').count()).toBeGreaterThan(0)
    const previewLabels = await frameEval(app, () => {
      const box = document.querySelector('[data-testid="candle-chart"]')!.getBoundingClientRect()
      return [...document.querySelectorAll('.chart-preview__price, .chart-preview__time')].map((e) => {
        const r = e.getBoundingClientRect()
        return { text: e.textContent, inside: r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1 }
      })
    })
    expect(previewLabels.length).toBeGreaterThan(3)
    expect(previewLabels.filter((l) => !l.inside)).toEqual([])
    // A tap makes the library's chart, with its crosshair and drags.
    await app.getByTestId('candle-chart').click({ position: { x: 40, y: 40 } })
    await app.getByTestId('candle-chart').locator('canvas').first().waitFor()
    // Read two animation frames on: the chart draws what it was given (data, a resize) in the next frame.
    const chart = () =>
      frameEval(app, async () => {
        await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
        const { __labels: labels, __canvases: canvases } = window as unknown as { __labels: Label[]; __canvases: HTMLCanvasElement[] }
        const now = canvases.map((c) => ({ width: c.width, box: c.getBoundingClientRect().width * devicePixelRatio, shown: c.isConnected }))
        const loading = !!document.querySelector('[data-testid="candle-chart"] .chart__overlay:not(.chart__overlay--text)')
        return { frame: innerWidth, loading, labels, canvases: now }
      })
    const isTime = (l: Label) => /^(\d{1,2}:\d{2}|\d{1,2}|\d{4}|[а-я]+\.?)$/.test(l.text)
    const timeLabels = async () => (await chart()).labels.filter(isTime)
    // The chart has drawn its data at the phone's width: the frame is that wide, the candles are in
    // (no spinner), the time scale's canvas holds as many pixels as its box on screen (the chart has
    // taken the resize), and its latest labels were drawn at that canvas width. Every label drawn
    // until then is checked below.
    const drawnAtWidth = async () => {
      const { frame, loading, canvases, labels } = await chart()
      const last = labels.filter(isTime).at(-1)
      const canvas = last && canvases[last.canvas]
      return { frame, loading, drawn: !!canvas && canvas.shown && last.width === canvas.width && Math.abs(canvas.box - canvas.width) <= 1 }
    }
    await expect.poll(drawnAtWidth).toEqual({ frame: width, loading: false, drawn: true })
    // Within a pixel: anti-aliasing, not a cut.
    const outside = (await timeLabels()).filter((l) => l.left < -1 || l.right > l.width + 1)
    expect(outside).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('texts from the backend, in Russian', () => {
  it('task titles and history descriptions read in Russian, bonds by the user’s own number', async () => {
    const other = nextUser()
    await makeMember(stack, other)
    await activeBond(stack, other, 7, 30)
    const user = nextUser()
    await makeMember(stack, user)
    const mintId = await activeBond(stack, user, 20, 30)
    await api(stack, user, 'POST', `/mint/${mintId}/cancel`)
    const { app, page, errors } = await launch(stack, { user, lang: 'ru', path: '/tasks' })
    await expectContains(app.getByTestId('task-1'), 'Вступите в сообщество AXIOM')
    await expectContains(app.getByTestId('task-2'), 'Загляните в новостной канал AXIOM')
    expect(await text(app.getByTestId('screen-tasks'))).not.toContain('Join the AXIOM community')

    const ops = await api<{ items: Array<{ id: number; type: string }> }>(stack, user, 'GET', '/operations/history')
    const welcome = ops.items.find((o) => o.type === 'welcome')!
    const cancel = ops.items.find((o) => o.type === 'bond_cancel')!
    const { app: history } = await launch(stack, { user, lang: 'ru', path: '/history', page })
    await expectContains(history.getByTestId(`operation-${welcome.id}`), 'Приветственный баланс')
    await expectContains(history.getByTestId(`operation-${cancel.id}`), 'Бонд #1 отменён, удержан штраф 10%')
    expect(errors).toEqual([])
    await page.close()
  })
})
