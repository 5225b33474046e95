import { build } from 'esbuild'
import type { Browser, Frame, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTelegramHost, type RunningTelegramHost } from '../../stand-ins/telegram-host/index.ts'
import { launchChromium } from '../support/chromium.ts'
import { launchAgain } from '../support/host-launch.ts'
import { startStandInApp, TEST_BOT_TOKEN, type StaticApp } from './support.ts'

/**
 * The emulator answers Telegram's 7.2–9.x methods as Telegram's docs give them
 * (core.telegram.org/api/web-events; docs.telegram-mini-apps.com/platform/methods and /events): the
 * stand-in app in its frame posts each method through telegram-web-app.js (Telegram.WebView.postEvent)
 * and reads the answer it gets, compared with the event JSON those pages show. In a phone-sized window.
 */

const byTestId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`)

/** The host's app frame once telegram-web-app.js has loaded in it. */
const appFrame = async (page: Page): Promise<Frame> => {
  const until = Date.now() + 10_000
  while (Date.now() < until) {
    const f = page.frame({ name: 'axiom-app' })
    if (f && !f.isDetached() && (await f.evaluate(() => Boolean((window as any).appLog)).catch(() => false))) return f
    await page.waitForTimeout(50)
  }
  throw new Error('the app frame did not load')
}

interface Answer {
  readonly eventType: string
  readonly eventData?: unknown
}

/** Posts `method` from the frame and resolves with the first of `events` the host sends back (null after `ms`). */
const call = (frame: Frame, method: string, params: unknown, events: string[], ms = 2_000): Promise<Answer | null> =>
  frame.evaluate(
    ([method, params, events, ms]) =>
      new Promise<Answer | null>((resolve) => {
        const WebView = (window as any).Telegram.WebView
        const stops: Array<() => void> = []
        const done = (a: Answer | null) => {
          for (const s of stops) s()
          resolve(a)
        }
        for (const type of events) {
          const cb = (eventType: string, eventData: unknown) => done(eventData === undefined ? { eventType } : { eventType, eventData })
          WebView.onEvent(type, cb)
          stops.push(() => WebView.offEvent(type, cb))
        }
        setTimeout(() => done(null), ms)
        WebView.postEvent(method, false, params ?? undefined)
      }),
    [method, params, events, ms] as const,
  )

/** Every event of the given types the host sends while `run` goes on in the frame. */
const collect = async (frame: Frame, events: string[], run: () => Promise<unknown>): Promise<Answer[]> => {
  await frame.evaluate((events) => {
    const w = window as any
    w.seen = []
    const cb = (eventType: string, eventData: unknown) => w.seen.push({ eventType, eventData })
    for (const type of events) w.Telegram.WebView.onEvent(type, cb)
    w.stopSeeing = () => events.forEach((type) => w.Telegram.WebView.offEvent(type, cb))
  }, events)
  await run()
  await frame.waitForTimeout(100)
  return frame.evaluate(() => {
    const w = window as any
    w.stopSeeing()
    return w.seen as Answer[]
  })
}

describe('the Telegram host emulator answers the 7.2–9.x methods', () => {
  let app: StaticApp
  let host: RunningTelegramHost
  let browser: Browser
  let page: Page
  let adapterBundle: string

  beforeAll(async () => {
    app = await startStandInApp()
    host = await startTelegramHost({ port: 0, appUrl: app.url, botToken: TEST_BOT_TOKEN, botUsername: 'axiom_test_bot' })
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 390, height: 844 } })
    // The platform's own adapter, as the app bundles it, to drive from the frame.
    const built = await build({
      stdin: {
        contents:
          "import { windowBridge } from './adapters/browser/telegram-bridge.ts'\n" +
          "import { TelegramFeatures } from './adapters/browser/telegram-features.ts'\n" +
          'window.axiomFeatures = (version) => new TelegramFeatures({ version, bridge: windowBridge(), userAgent: navigator.userAgent })\n',
        resolveDir: process.cwd(),
        loader: 'ts',
      },
      bundle: true,
      format: 'iife',
      write: false,
      platform: 'browser',
    })
    adapterBundle = built.outputFiles[0]!.text
  })
  afterAll(async () => {
    await browser?.close()
    await host?.close()
    await app?.close()
  })

  it('fits a 390 px window with the app in view after Launch, and gives the frame the chosen User-Agent', async () => {
    await page.goto(`${host.url}?user=5151&version=9.1&platform=android&perf=LOW`)
    const frame = await appFrame(page)
    expect(await frame.evaluate(() => navigator.userAgent)).toMatch(/ Telegram-Android\/11\.11\.0 \(Google Pixel 7; Android 14; SDK 34; LOW\)$/)
    expect(await byTestId(page, 'host-user-agent').textContent()).toContain('SDK 34; LOW)')

    // Launch again from the form, below the phone on a narrow window: the page scrolls back to the app.
    // 375 px is a 390 px window less a classic scrollbar; 360 px a small Android phone.
    for (const width of [390, 375, 360]) {
      await page.setViewportSize({ width, height: 844 })
      await launchAgain(page)
      await appFrame(page)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
      // The frame is laid out once the launch has replaced it: its box, when there is one.
      await expect.poll(() => byTestId(page, 'host-iframe').boundingBox(), { timeout: 10_000 }).not.toBeNull()
      const box = await byTestId(page, 'host-iframe').boundingBox()
      expect(box!.x).toBeGreaterThanOrEqual(0)
      expect(box!.x + box!.width).toBeLessThanOrEqual(width)
      expect(box!.y).toBeGreaterThanOrEqual(0)
      expect(box!.y).toBeLessThan(844 / 2)
    }
    await page.setViewportSize({ width: 390, height: 844 })
  })

  it('SecureStorage and DeviceStorage: each request answered with its req_id, kept per user', async () => {
    await page.goto(`${host.url}?user=5152&version=9.1&platform=ios`)
    let frame = await appFrame(page)
    const saved = ['secure_storage_key_saved', 'secure_storage_failed']
    expect(await call(frame, 'web_app_secure_storage_save_key', { req_id: 's1', key: 'refresh', value: 'tok-1' }, saved)).toEqual({
      eventType: 'secure_storage_key_saved',
      eventData: { req_id: 's1' },
    })
    expect(await call(frame, 'web_app_secure_storage_get_key', { req_id: 's2', key: 'refresh' }, ['secure_storage_key_received'])).toEqual({
      eventType: 'secure_storage_key_received',
      eventData: { req_id: 's2', value: 'tok-1', can_restore: false },
    })
    expect(await call(frame, 'web_app_secure_storage_save_key', { req_id: 's3', key: 'refresh', value: null }, saved)).toEqual({
      eventType: 'secure_storage_key_saved',
      eventData: { req_id: 's3' },
    })
    expect(await call(frame, 'web_app_secure_storage_get_key', { req_id: 's4', key: 'refresh' }, ['secure_storage_key_received'])).toMatchObject({
      eventData: { req_id: 's4', value: null },
    })

    expect(await call(frame, 'web_app_device_storage_save_key', { req_id: 'd1', key: 'theme', value: 'dark' }, ['device_storage_key_saved'])).toEqual({
      eventType: 'device_storage_key_saved',
      eventData: { req_id: 'd1' },
    })
    // The same key in SecureStorage is another store.
    expect(await call(frame, 'web_app_secure_storage_get_key', { req_id: 's5', key: 'theme' }, ['secure_storage_key_received'])).toMatchObject({ eventData: { value: null } })

    await byTestId(page, 'host-storage-fails').check()
    expect(await call(frame, 'web_app_device_storage_get_key', { req_id: 'd2', key: 'theme' }, ['device_storage_key_received', 'device_storage_failed'])).toEqual({
      eventType: 'device_storage_failed',
      eventData: { req_id: 'd2', error: 'UNKNOWN_ERROR' },
    })
    await byTestId(page, 'host-storage-fails').uncheck()

    // Another launch of the same user finds the key; another user does not.
    await page.goto(`${host.url}?user=5152&version=9.1&platform=ios`, { waitUntil: 'load' })
    frame = await appFrame(page)
    // (A page load forgets the emulator's memory: the host is reloaded here, so the store starts empty.)
    expect(await call(frame, 'web_app_device_storage_get_key', { req_id: 'd3', key: 'theme' }, ['device_storage_key_received'])).toEqual({
      eventType: 'device_storage_key_received',
      eventData: { req_id: 'd3', value: null },
    })
    await call(frame, 'web_app_device_storage_save_key', { req_id: 'd4', key: 'theme', value: 'light' }, ['device_storage_key_saved'])
    await launchAgain(page)
    frame = await appFrame(page)
    expect(await call(frame, 'web_app_device_storage_get_key', { req_id: 'd5', key: 'theme' }, ['device_storage_key_received'])).toMatchObject({ eventData: { value: 'light' } })
    await byTestId(page, 'host-user-id').fill('5153')
    await launchAgain(page)
    frame = await appFrame(page)
    expect(await frame.evaluate(() => (window as any).Telegram.WebApp.initDataUnsafe.user.id)).toBe(5153)
    expect(await call(frame, 'web_app_device_storage_get_key', { req_id: 'd6', key: 'theme' }, ['device_storage_key_received'])).toMatchObject({ eventData: { value: null } })
    expect(await call(frame, 'web_app_device_storage_clear', { req_id: 'd7' }, ['device_storage_cleared'])).toEqual({ eventType: 'device_storage_cleared', eventData: { req_id: 'd7' } })
  })

  it('fullscreen on a notched phone: the change, both insets, ALREADY_FULLSCREEN, exit, and a failure when asked', async () => {
    await page.goto(`${host.url}?user=5154&version=8.0&platform=ios`)
    const frame = await appFrame(page)
    const events = ['fullscreen_changed', 'fullscreen_failed', 'safe_area_changed', 'content_safe_area_changed']
    const entered = await collect(frame, events, () => call(frame, 'web_app_request_fullscreen', undefined, ['fullscreen_changed']))
    expect(entered).toEqual([
      { eventType: 'fullscreen_changed', eventData: { is_fullscreen: true } },
      { eventType: 'safe_area_changed', eventData: { top: 47, bottom: 34, left: 0, right: 0 } },
      { eventType: 'content_safe_area_changed', eventData: { top: 46, bottom: 0, left: 0, right: 0 } },
    ])
    expect(await frame.evaluate(() => (window as any).Telegram.WebApp.isFullscreen)).toBe(true)
    // The app fills the screen, under the notch; Telegram's Close stays over it.
    const [screen, frameBox] = await Promise.all([page.locator('#screen').boundingBox(), byTestId(page, 'host-iframe').boundingBox()])
    expect(frameBox!.y).toBe(screen!.y)
    expect(frameBox!.height).toBe(screen!.height)
    await expect.poll(() => byTestId(page, 'host-close').isVisible()).toBe(true)
    expect(await call(frame, 'web_app_request_safe_area', undefined, ['safe_area_changed'])).toEqual({ eventType: 'safe_area_changed', eventData: { top: 47, bottom: 34, left: 0, right: 0 } })

    expect(await call(frame, 'web_app_request_fullscreen', undefined, ['fullscreen_failed'])).toEqual({ eventType: 'fullscreen_failed', eventData: { error: 'ALREADY_FULLSCREEN' } })
    const left = await collect(frame, events, () => call(frame, 'web_app_exit_fullscreen', undefined, ['fullscreen_changed']))
    expect(left).toEqual([
      { eventType: 'fullscreen_changed', eventData: { is_fullscreen: false } },
      { eventType: 'safe_area_changed', eventData: { top: 0, bottom: 0, left: 0, right: 0 } },
      { eventType: 'content_safe_area_changed', eventData: { top: 0, bottom: 0, left: 0, right: 0 } },
    ])

    await byTestId(page, 'host-fullscreen-fails').check()
    expect(await call(frame, 'web_app_request_fullscreen', undefined, ['fullscreen_changed', 'fullscreen_failed'])).toEqual({
      eventType: 'fullscreen_failed',
      eventData: { error: 'UNSUPPORTED' },
    })
    await byTestId(page, 'host-fullscreen-fails').uncheck()
  })

  it('the home screen: missed, the prompt, added and remembered; unsupported on desktop', async () => {
    await page.goto(`${host.url}?user=5155&version=8.0&platform=android`)
    let frame = await appFrame(page)
    await page.evaluate(() => localStorage.removeItem('axiom-host:home:5155'))
    expect(await call(frame, 'web_app_check_home_screen', undefined, ['home_screen_checked'])).toEqual({ eventType: 'home_screen_checked', eventData: { status: 'missed' } })
    const declined = call(frame, 'web_app_add_to_home_screen', undefined, ['home_screen_added', 'home_screen_failed'], 10_000)
    await byTestId(page, 'host-popup-button').filter({ hasText: 'Cancel' }).click()
    expect(await declined).toEqual({ eventType: 'home_screen_failed' })
    const added = call(frame, 'web_app_add_to_home_screen', undefined, ['home_screen_added', 'home_screen_failed'], 10_000)
    await byTestId(page, 'host-popup-button').filter({ hasText: 'Add' }).click()
    expect(await added).toEqual({ eventType: 'home_screen_added' })
    await launchAgain(page)
    frame = await appFrame(page)
    expect(await call(frame, 'web_app_check_home_screen', undefined, ['home_screen_checked'])).toEqual({ eventType: 'home_screen_checked', eventData: { status: 'added' } })

    await page.goto(`${host.url}?user=5155&version=8.0&platform=tdesktop`)
    frame = await appFrame(page)
    expect(await call(frame, 'web_app_check_home_screen', undefined, ['home_screen_checked'])).toEqual({ eventType: 'home_screen_checked', eventData: { status: 'unsupported' } })
  })

  it('biometrics: the settings, the access prompt with its reason, then authentication as set', async () => {
    await page.goto(`${host.url}?user=5156&version=7.2&platform=ios`)
    const frame = await appFrame(page)
    expect(await call(frame, 'web_app_biometry_get_info', undefined, ['biometry_info_received'])).toEqual({
      eventType: 'biometry_info_received',
      eventData: { available: true, type: 'face', access_requested: false, access_granted: false, token_saved: false, device_id: 'emulator-5156' },
    })
    expect(await call(frame, 'web_app_biometry_request_auth', { reason: 'before access' }, ['biometry_auth_requested'])).toEqual({
      eventType: 'biometry_auth_requested',
      eventData: { status: 'failed' },
    })
    const access = call(frame, 'web_app_biometry_request_access', { reason: 'Confirm withdrawals' }, ['biometry_info_received'], 10_000)
    await expect.poll(() => byTestId(page, 'host-popup').textContent()).toContain('Confirm withdrawals')
    await byTestId(page, 'host-popup-button').filter({ hasText: /^Allow$/ }).click()
    expect(await access).toMatchObject({ eventType: 'biometry_info_received', eventData: { available: true, access_requested: true, access_granted: true } })

    expect(await call(frame, 'web_app_biometry_update_token', { token: 'bio-token' }, ['biometry_token_updated'])).toEqual({
      eventType: 'biometry_token_updated',
      eventData: { status: 'updated' },
    })
    expect(await call(frame, 'web_app_biometry_request_auth', { reason: 'Sign' }, ['biometry_auth_requested'])).toEqual({
      eventType: 'biometry_auth_requested',
      eventData: { status: 'authorized', token: 'bio-token' },
    })
    await byTestId(page, 'host-biometry').selectOption('fail')
    expect(await call(frame, 'web_app_biometry_request_auth', { reason: 'Sign' }, ['biometry_auth_requested'])).toEqual({
      eventType: 'biometry_auth_requested',
      eventData: { status: 'failed' },
    })
    await byTestId(page, 'host-biometry').selectOption('unavailable')
    expect(await call(frame, 'web_app_biometry_get_info', undefined, ['biometry_info_received'])).toMatchObject({ eventData: { available: false } })
    await byTestId(page, 'host-biometry').selectOption('succeed')
  })

  it('a client older than a method ignores it: 7.0 answers neither fullscreen, biometrics nor storage', async () => {
    await page.goto(`${host.url}?user=5157&version=7.0&platform=android`)
    const frame = await appFrame(page)
    expect(await call(frame, 'web_app_request_fullscreen', undefined, ['fullscreen_changed', 'fullscreen_failed'], 400)).toBeNull()
    expect(await call(frame, 'web_app_biometry_get_info', undefined, ['biometry_info_received'], 400)).toBeNull()
    expect(await call(frame, 'web_app_device_storage_get_key', { req_id: 'x', key: 'k' }, ['device_storage_key_received', 'device_storage_failed'], 400)).toBeNull()
    await expect.poll(() => byTestId(page, 'host-log').textContent()).toContain('client 7.0 ignores it')
  })

  it("the platform's adapter, run in the frame, gets its answers from the emulator", async () => {
    await page.goto(`${host.url}?user=5158&version=9.1&platform=android&perf=HIGH`)
    const frame = await appFrame(page)
    await frame.addScriptTag({ content: adapterBundle })
    const results = await frame.evaluate(async () => {
      const f = (window as any).axiomFeatures('9.1')
      const saved = await f.secureStorage.set('refresh', 'tok-9')
      const read = await f.secureStorage.get('refresh')
      const device = await f.deviceStorage.get('nothing')
      const fullscreen = await f.fullscreen.request()
      await new Promise((r) => setTimeout(r, 100))
      return { saved, read, device, fullscreen, insets: f.insets.current(), isFullscreen: f.fullscreen.isFullscreen(), perf: f.performanceClass(), home: await f.homeScreen.check() }
    })
    expect(results).toEqual({
      saved: { kind: 'ok' },
      read: { kind: 'ok', value: 'tok-9' },
      device: { kind: 'ok', value: null },
      fullscreen: { kind: 'fullscreen' },
      insets: { safeArea: { top: 47, bottom: 34, left: 0, right: 0 }, contentSafeArea: { top: 46, bottom: 0, left: 0, right: 0 } },
      isFullscreen: true,
      perf: 'HIGH',
      home: 'missed',
    })
    const old = await frame.evaluate(async () => {
      const f = (window as any).axiomFeatures('7.0')
      return [await f.secureStorage.get('refresh'), await f.fullscreen.request(), await f.homeScreen.check()]
    })
    expect(old).toEqual([{ kind: 'unsupported' }, { kind: 'unsupported' }, 'unsupported'])
  })
})
