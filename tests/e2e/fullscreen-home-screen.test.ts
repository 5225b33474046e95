import { describe, expect, it } from 'vitest'
import type { FrameLocator, Page } from 'playwright-core'
import { activeBond, makeMember, type Stack, useStack } from './stack.ts'
import { expectText, frameEval, nextUser } from './helpers.ts'
import { launchAgain } from '../support/host-launch.ts'

/**
 * Telegram's fullscreen, its insets, the home-screen shortcut and slow phones, through the host
 * emulator: a notched phone whose fullscreen puts the status bar (47 px) and Telegram's Close and ⋯
 * buttons (46 px below it) over the app, and a home indicator (34 px) at its bottom. A 9.1 client has
 * them all, a 7.0 client none; a LOW Android device says so in its User-Agent.
 */
const stack = useStack()

/** The emulator's notch: the safe area and the content safe area it reports in fullscreen. */
const SAFE_TOP = 47
const CONTENT_TOP = 46
const SAFE_BOTTOM = 34

interface Opened {
  readonly page: Page
  readonly app: FrameLocator
  readonly errors: string[]
}

/**
 * Opens the host for `user` (a community member) with a chosen client: its version, platform and,
 * on Android, performance class. With `page`, opens it again there (the app's storage survives).
 */
const open = async (
  s: Stack,
  o: { readonly user: number; readonly version: string; readonly platform?: string; readonly perf?: 'LOW' | 'AVERAGE' | 'HIGH'; readonly page?: Page },
): Promise<Opened> => {
  if (!o.page) await makeMember(s, o.user)
  const page = o.page ?? (await s.browser.newPage({ viewport: { width: 1100, height: 900 } }))
  page.setDefaultTimeout(15_000)
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  const q = new URLSearchParams({ user: String(o.user), lang: 'en', version: o.version, platform: o.platform ?? 'ios' })
  if (o.perf) q.set('perf', o.perf)
  await page.goto(`${s.host.url}?${q}`)
  const app = page.frameLocator('iframe')
  await app.getByTestId('screen-dashboard').waitFor()
  return { page, app, errors }
}

/** Waits until the platform's features have reached the page (their insets are on <html>, zero or not). */
const featuresApplied = (app: FrameLocator) =>
  expect
    .poll(() => frameEval(app, () => document.documentElement.style.getPropertyValue('--platform-safe-top')), { message: 'the platform features on the page' })
    .not.toBe('')

/** Waits until the app's main thread has been idle once and a frame drawn: what a late answer would show is on screen. */
const idle = (app: FrameLocator) =>
  frameEval(app, () => new Promise<void>((done) => requestIdleCallback(() => requestAnimationFrame(() => done()), { timeout: 2_000 })))

/** The user's bonds are listed on the dashboard. */
const bondsListed = (app: FrameLocator) => expect.poll(() => app.locator('[data-testid^="mint-row-"]').count()).toBeGreaterThan(0)

/** The methods the app posted to the host so far, by name. */
const posted = (page: Page, method: string): Promise<number> =>
  page.evaluate(
    (method) => (window as unknown as { __axiomHost: { events: Array<{ dir: string; type: string }> } }).__axiomHost.events.filter((e) => e.dir === 'in' && e.type === method).length,
    method,
  )

/** Whether the host shows the app in fullscreen. */
const hostFullscreen = (page: Page) => page.getByTestId('host-fullscreen').textContent()

const box = async (l: { boundingBox(): Promise<{ x: number; y: number; width: number; height: number } | null> }) => {
  const b = await l.boundingBox()
  if (!b) throw new Error('not on screen')
  return b
}

/** Telegram sends the app an event, as the host's client would (a late inset, say). */
const hostSends = (page: Page, eventType: string, eventData: unknown) =>
  page.evaluate(
    ([eventType, eventData]) => (document.getElementById('app-frame') as HTMLIFrameElement).contentWindow!.postMessage(JSON.stringify({ eventType, eventData }), '*'),
    [eventType, eventData] as const,
  )

describe('fullscreen on a 9.1 client', () => {
  it('the toggle puts the app in fullscreen, clear of the notch, Telegram’s buttons and the home indicator, and the next open asks for it again', async () => {
    const user = nextUser()
    const { page, app, errors } = await open(stack, { user, version: '9.1' })
    const toggle = app.getByTestId('fullscreen-toggle')
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('false')
    expect(await toggle.getAttribute('aria-label')).toBe('Fullscreen')
    const size = await box(toggle)
    expect(Math.min(size.width, size.height)).toBeGreaterThanOrEqual(44)

    await toggle.click()
    await expect.poll(() => hostFullscreen(page)).toBe('yes')
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true')

    // In the app's frame: the bar's content starts below the safe area and Telegram's controls, summed.
    await expect.poll(() => app.getByTestId('brand').evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThanOrEqual(SAFE_TOP + CONTENT_TOP)
    // On the phone: below the host's header with its Close and ⋯ buttons, drawn over the app.
    const header = await box(page.locator('.tg-header'))
    expect((await box(app.getByTestId('brand'))).y).toBeGreaterThanOrEqual(header.y + header.height)
    expect((await box(app.getByTestId('fullscreen-toggle'))).y).toBeGreaterThanOrEqual(header.y + header.height)
    // The tabs end above the home indicator.
    const indicator = await box(page.locator('.home-indicator'))
    const tab = await box(app.getByTestId('tab-dashboard'))
    expect(indicator.height).toBe(SAFE_BOTTOM)
    expect(tab.y + tab.height).toBeLessThanOrEqual(indicator.y)
    const navBottomGap = await app.locator('.bottom-nav').evaluate((nav) => innerHeight - nav.querySelector('.tab')!.getBoundingClientRect().bottom)
    expect(navBottomGap).toBeGreaterThanOrEqual(SAFE_BOTTOM)

    // Opened again: the app asks for fullscreen itself.
    const before = await posted(page, 'web_app_request_fullscreen')
    await launchAgain(page)
    await app.getByTestId('screen-dashboard').waitFor()
    await expect.poll(() => posted(page, 'web_app_request_fullscreen')).toBe(before + 1)
    await expect.poll(() => hostFullscreen(page)).toBe('yes')
    await expect.poll(() => app.getByTestId('fullscreen-toggle').getAttribute('aria-pressed')).toBe('true')

    // Off: the app leaves fullscreen, and the next open does not ask.
    await app.getByTestId('fullscreen-toggle').click()
    await expect.poll(() => hostFullscreen(page)).toBe('no')
    await expect.poll(() => app.getByTestId('brand').evaluate((el) => el.getBoundingClientRect().top)).toBeLessThan(SAFE_TOP)
    const asked = await posted(page, 'web_app_request_fullscreen')
    await launchAgain(page)
    await app.getByTestId('screen-dashboard').waitFor()
    await featuresApplied(app)
    await expect.poll(() => app.getByTestId('fullscreen-toggle').getAttribute('aria-pressed')).toBe('false')
    expect(await posted(page, 'web_app_request_fullscreen')).toBe(asked)
    expect(errors).toEqual([])
    await page.close()
  })

  it('a refusal (fullscreen_failed) turns the toggle back off with a short message, and is not asked for again', async () => {
    const user = nextUser()
    const { page, app, errors } = await open(stack, { user, version: '9.1' })
    await page.getByTestId('host-fullscreen-fails').check()
    const toggle = app.getByTestId('fullscreen-toggle')
    await toggle.click()
    await expectText(app.getByTestId('fullscreen-failed'), 'Fullscreen is not available right now')
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('false')
    expect(await hostFullscreen(page)).toBe('no')
    // The message goes by itself.
    await expect.poll(() => app.getByTestId('fullscreen-failed').count(), { timeout: 8_000 }).toBe(0)

    await page.getByTestId('host-fullscreen-fails').uncheck()
    const asked = await posted(page, 'web_app_request_fullscreen')
    await launchAgain(page)
    await app.getByTestId('screen-dashboard').waitFor()
    await featuresApplied(app)
    expect(await posted(page, 'web_app_request_fullscreen')).toBe(asked)
    expect(errors).toEqual([])
    await page.close()
  })

  it('an inset that arrives after the first paint moves the top bar and the tabs', async () => {
    const { page, app, errors } = await open(stack, { user: nextUser(), version: '9.1' })
    await featuresApplied(app)
    const brandTop = () => app.getByTestId('brand').evaluate((el) => el.getBoundingClientRect().top)
    const tabGap = () => app.locator('.bottom-nav .tab').first().evaluate((tab) => innerHeight - tab.getBoundingClientRect().bottom)
    const [top, gap] = [await brandTop(), await tabGap()]
    expect(top).toBeLessThan(30)

    await hostSends(page, 'safe_area_changed', { top: 30, bottom: 20, left: 0, right: 0 })
    await expect.poll(brandTop).toBeGreaterThanOrEqual(top + 30)
    await expect.poll(tabGap).toBeGreaterThanOrEqual(gap + 20)
    await hostSends(page, 'content_safe_area_changed', { top: 40, bottom: 0, left: 0, right: 0 })
    await expect.poll(brandTop).toBeGreaterThanOrEqual(top + 30 + 40)
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('fullscreen on a 7.0 client', () => {
  it('has no toggle and asks for nothing', async () => {
    const { page, app, errors } = await open(stack, { user: nextUser(), version: '7.0', platform: 'android' })
    await featuresApplied(app)
    expect(await app.getByTestId('fullscreen-toggle').count()).toBe(0)
    expect(await posted(page, 'web_app_request_fullscreen')).toBe(0)
    expect(await posted(page, 'web_app_check_home_screen')).toBe(0)
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('the home screen', () => {
  it('is offered once the first bond is active; Add puts AXIOM there, and it is not offered again', async () => {
    const user = nextUser()
    const { page, app, errors } = await open(stack, { user, version: '9.1', platform: 'android' })
    await page.evaluate((user) => localStorage.removeItem(`axiom-host:home:${user}`), user)
    await featuresApplied(app)
    await expect.poll(() => app.getByTestId('balance-main-amount').innerText()).toMatch(/\d/)
    // No bond yet: no offer.
    expect(await app.getByTestId('home-screen-offer').count()).toBe(0)

    // The first bond goes active while the app is open (the watcher's live event).
    await activeBond(stack, user, 100)
    const offer = app.getByTestId('home-screen-offer')
    await expect.poll(() => offer.isVisible()).toBe(true)
    expect(await offer.locator('h2').textContent()).toBe('Add AXIOM to your home screen')
    expect(await posted(page, 'web_app_check_home_screen')).toBe(1)

    await app.getByTestId('home-screen-add').click()
    await expect.poll(() => offer.count()).toBe(0)
    // Telegram's own prompt, then the status.
    await page.getByTestId('host-popup-button').filter({ hasText: 'Add' }).click()
    await expect.poll(() => page.getByTestId('host-home').textContent()).toBe('added')
    expect(await posted(page, 'web_app_add_to_home_screen')).toBe(1)

    await launchAgain(page)
    await app.getByTestId('screen-dashboard').waitFor()
    await featuresApplied(app)
    await bondsListed(app)
    await idle(app)
    expect(await app.getByTestId('home-screen-offer').count()).toBe(0)
    expect(await posted(page, 'web_app_check_home_screen')).toBe(1)
    expect(await posted(page, 'web_app_add_to_home_screen')).toBe(1)
    expect(errors).toEqual([])
    await page.close()
  })

  it('Not now ends the offer for good', async () => {
    const user = nextUser()
    await makeMember(stack, user)
    await activeBond(stack, user, 100)
    const { page, app, errors } = await open(stack, { user, version: '9.1', platform: 'ios' })
    await page.evaluate((user) => localStorage.removeItem(`axiom-host:home:${user}`), user)
    await app.getByTestId('home-screen-not-now').click()
    await expect.poll(() => app.getByTestId('home-screen-offer').count()).toBe(0)
    expect(await posted(page, 'web_app_add_to_home_screen')).toBe(0)

    const checked = await posted(page, 'web_app_check_home_screen')
    await launchAgain(page)
    await app.getByTestId('screen-dashboard').waitFor()
    await featuresApplied(app)
    await bondsListed(app)
    await idle(app)
    expect(await app.getByTestId('home-screen-offer').count()).toBe(0)
    expect(await posted(page, 'web_app_check_home_screen')).toBe(checked)
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('slow phones', () => {
  it('a LOW Android device gets no animations: the reduced class on <html>, and the chart made without its kinetic scroll', async () => {
    const { page, app, errors } = await open(stack, { user: nextUser(), version: '9.1', platform: 'android', perf: 'LOW' })
    await expect.poll(() => frameEval(app, () => document.documentElement.classList.contains('reduced-effects'))).toBe(true)
    // The library's chart, made by a tap on the app's drawing of the candles.
    await app.getByTestId('chart-preview').locator('svg').waitFor()
    expect(await app.getByTestId('candle-chart').getAttribute('data-animation')).toBeNull()
    await app.getByTestId('candle-chart').click({ position: { x: 40, y: 40 } })
    await expect.poll(() => app.getByTestId('candle-chart').getAttribute('data-animation')).toBe('off')
    // The sheets' and toasts' animations and the tabs' transitions are cut.
    expect(await app.locator('.bottom-nav .tab').first().evaluate((el) => getComputedStyle(el).transitionDuration)).toBe('1e-05s')
    expect(await app.locator('.bottom-nav').evaluate((el) => getComputedStyle(el).backdropFilter)).toBe('none')
    expect(errors).toEqual([])
    await page.close()
  })

  it('a HIGH one keeps them', async () => {
    const { page, app, errors } = await open(stack, { user: nextUser(), version: '9.1', platform: 'android', perf: 'HIGH' })
    await featuresApplied(app)
    await app.getByTestId('chart-preview').locator('svg').waitFor()
    await app.getByTestId('candle-chart').click({ position: { x: 40, y: 40 } })
    await expect.poll(() => app.getByTestId('candle-chart').getAttribute('data-animation')).toBe('on')
    expect(await frameEval(app, () => document.documentElement.classList.contains('reduced-effects'))).toBe(false)
    expect(errors).toEqual([])
    await page.close()
  })
})
