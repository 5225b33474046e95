import type { FrameLocator, Locator, Page } from 'playwright-core'
import { expect } from 'vitest'

let lastUser = 50_000
/** A fresh Telegram user id, so tests never share a user. */
export const nextUser = (): number => ++lastUser

/** Runs `fn` inside the mini app's frame. */
export const frameEval = <R>(app: FrameLocator, fn: () => R): Promise<R> => app.locator('html').evaluate(fn)

/**
 * Makes the host's app viewport exactly `width`×`height` and the page that size, so the frame is that
 * screen (and the host page, behind it, cannot scroll it away).
 */
export const phone = async (page: Page, width: number, height = 844) => {
  await page.addStyleTag({
    content: `#viewport { position: fixed !important; left: 0; top: 0; width: ${width}px !important; height: ${height}px !important; z-index: 100000; flex: none !important; }`,
  })
  await page.setViewportSize({ width, height })
}

/** The visible text of one element, trimmed. */
export const text = async (l: Locator): Promise<string> => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim()

/** Waits until an element's text equals / contains `expected`. */
export const expectText = (l: Locator, expected: string) => expect.poll(() => text(l), { timeout: 10_000 }).toBe(expected)
export const expectContains = (l: Locator, expected: string) => expect.poll(() => text(l), { timeout: 10_000 }).toContain(expected)

/** The five tab labels, left to right. */
export const tabLabels = (app: FrameLocator): Promise<string[]> =>
  Promise.all(['tab-bond', 'tab-staking', 'tab-dashboard', 'tab-referral', 'tab-tasks'].map((id) => text(app.getByTestId(id).locator('.tab__label'))))

/** Texts of the toasts of one kind now on screen. */
export const toastTexts = async (app: FrameLocator, kind: 'success' | 'error' | 'info'): Promise<string[]> =>
  (await app.getByTestId(`toast-${kind}`).locator('.toast__text').allTextContents()).map((s) => s.replace(/\s+/g, ' ').trim())

/** Waits for a toast of `kind` whose text is exactly `expected`. */
export const expectToast = (app: FrameLocator, kind: 'success' | 'error' | 'info', expected: string) =>
  expect.poll(() => toastTexts(app, kind), { timeout: 10_000, message: `toast-${kind} '${expected}'` }).toEqual(expect.arrayContaining([expected]))

/**
 * Starts keeping every toast text the app shows, in order, however briefly it stays (a toast may
 * be replaced within milliseconds); `toastsSeen` reads them.
 */
export const recordToasts = (app: FrameLocator): Promise<void> =>
  frameEval(app, () => {
    const w = window as unknown as { __toastsSeen?: string[] }
    if (w.__toastsSeen) return
    const seen: string[] = (w.__toastsSeen = [])
    const region = document.querySelector('[data-testid="toasts"]')
    if (!region) throw new Error('no toast region')
    new MutationObserver((records) => {
      for (const r of records)
        for (const n of r.addedNodes)
          if (n instanceof HTMLElement) for (const t of n.querySelectorAll('.toast__text')) seen.push((t.textContent ?? '').trim())
    }).observe(region, { childList: true })
  })

/** The toast texts shown since `recordToasts`, in order. */
export const toastsSeen = (app: FrameLocator): Promise<string[]> =>
  frameEval(app, () => [...((window as unknown as { __toastsSeen?: string[] }).__toastsSeen ?? [])])

/** Parses a displayed amount ('1 234.56' → 1234.56). */
export const amountOf = (s: string): number => Number(s.replace(/[\s\u00a0\u202f]/g, '').replace(/[^\d.-]/g, ''))

/**
 * What spec §5 shows for a decimal string off the wire, worked out on its digits: cut (never
 * rounded) to `decimals`, at least two places, thousands grouped with spaces.
 */
export const shownAmount = (wire: string, decimals = 2): string => {
  const negative = wire.startsWith('-')
  const [int = '0', frac = ''] = (negative ? wire.slice(1) : wire).split('.')
  const cut = frac.slice(0, decimals).replace(/0+$/, '').padEnd(2, '0')
  return `${negative ? '-' : ''}${int.replace(/\B(?=(\d{3})+$)/g, ' ')}.${cut}`
}

/**
 * Every visible number with a decimal point in the app that breaks spec §5: fewer than 2 or more
 * than 6 decimals (10 for rewards, §4), thousands not grouped with spaces, or 'NaN'.
 */
export const amountProblems = (app: FrameLocator): Promise<string[]> =>
  frameEval(app, () => {
    const REWARD = '[data-precision="reward"]'
    const problems: string[] = []
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement
      const text = node.textContent ?? ''
      if (!el || !text.trim() || !el.checkVisibility()) continue
      const max = el.closest(REWARD) ? 10 : 6
      if (text.includes('NaN')) problems.push(`NaN: '${text}'`)
      if (/\d,\d/.test(text)) problems.push(`grouped with commas: '${text}'`)
      for (const m of text.matchAll(/(\d+(?:[ \u00a0\u202f]\d{3})*)\.(\d+)/g)) {
        const [whole = '', int = '', frac = ''] = m
        if (/\d{4}/.test(int)) problems.push(`thousands not grouped: '${whole}' in '${text}'`)
        if (frac.length < 2) problems.push(`fewer than 2 decimals: '${whole}' in '${text}'`)
        if (frac.length > max) problems.push(`${frac.length} decimals: '${whole}' in '${text}'`)
      }
    }
    return problems
  })

/** The error haptics the host received from the app so far. */
export const errorHaptics = (page: Page): Promise<number> =>
  page.evaluate(
    () =>
      (window as unknown as { __axiomHost: { events: Array<{ dir: string; type: string; data: { notification_type?: string } | undefined }> } }).__axiomHost.events.filter(
        (e) => e.dir === 'in' && e.type === 'web_app_trigger_haptic_feedback' && e.data?.notification_type === 'error',
      ).length,
  )

/**
 * Watches the page's HTTP requests (from now on) and tells how many still wait for their answer.
 * Streams that stay open are not waited for: WebSockets (the live feed) are not requests here, and
 * event streams (the wallet bridge) are left out.
 */
export const watchRequests = (page: Page): (() => number) => {
  const open = new Set<unknown>()
  page.on('request', (r) => {
    if (r.resourceType() !== 'eventsource') open.add(r)
  })
  page.on('requestfinished', (r) => open.delete(r))
  page.on('requestfailed', (r) => open.delete(r))
  return () => open.size
}

/**
 * Runs `action`, which reloads the app's document (Done under the community gate), and waits until
 * the new document is there: a click in the frame returns before the frame's reload has begun, and
 * the old document would answer the next read with what it still shows.
 */
export const reloadedBy = async (app: FrameLocator, action: () => Promise<unknown>): Promise<void> => {
  await frameEval(app, () => {
    ;(window as unknown as { __beforeReload?: true }).__beforeReload = true
  })
  await action()
  await expect
    .poll(() => frameEval(app, () => !('__beforeReload' in window)).catch(() => false), { timeout: 15_000, message: 'the app did not reload' })
    .toBe(true)
}

/** Waits until the app shows the signed-in user's figures (their /user/me has answered), then until it has settled. */
export const userShown = async (app: FrameLocator, inFlight: () => number): Promise<void> => {
  await expect.poll(() => app.getByTestId('balance-main-amount').innerText(), { timeout: 15_000 }).toMatch(/\d/)
  await settled(app, inFlight)
}

/**
 * Waits until the app has settled: no request in flight, then the app's main thread idle once and a
 * frame drawn. Whatever a late answer or a call made on the way would show is on screen by then,
 * so a test can assert that something did not happen without sleeping for a guessed time.
 */
export const settled = async (app: FrameLocator, inFlight: () => number): Promise<void> => {
  await expect.poll(inFlight, { timeout: 15_000, message: 'requests still in flight' }).toBe(0)
  await frameEval(app, () => new Promise<void>((done) => requestIdleCallback(() => requestAnimationFrame(() => done()), { timeout: 2_000 })))
  // A request started by the last answer's handling is waited for too.
  await expect.poll(inFlight, { timeout: 15_000, message: 'requests still in flight' }).toBe(0)
}

/** Connects the dev wallet from the Bond screen: its page opens in a new tab and approves. */
export const connectDevWallet = async (page: Page, app: FrameLocator): Promise<void> => {
  await app.getByTestId('tab-bond').click()
  await app.getByTestId('connect-wallet').click()
  const walletTab = page.context().waitForEvent('page')
  await app.getByText('AXIOM Dev Wallet').or(app.getByText('AXIOM De')).first().click()
  const tab = await walletTab
  await tab.waitForLoadState()
  await tab.close()
  await app.getByTestId('wallet-chip').waitFor()
}

/**
 * A key of the emulator's SecureStorage or DeviceStorage for the launched user, read from inside the
 * app's frame with Telegram's own request (web_app_secure_storage_get_key or
 * web_app_device_storage_get_key with a req_id, answered by secure_storage_key_received or
 * device_storage_key_received).
 */
export const telegramStorage = (app: FrameLocator, storage: 'secure' | 'device', key: string): Promise<string | null> =>
  app.locator('html').evaluate(
    (_, { storage, key }) =>
      new Promise<string | null>((resolve, reject) => {
        const reqId = `test-${Math.random().toString(36).slice(2)}`
        const timer = setTimeout(() => reject(new Error(`${storage} storage did not answer`)), 5_000)
        const onMessage = (event: MessageEvent) => {
          let message: { eventType?: string; eventData?: { req_id?: string; value?: string | null } }
          try {
            message = JSON.parse(String(event.data))
          } catch {
            return
          }
          if (message.eventType !== `${storage}_storage_key_received` || message.eventData?.req_id !== reqId) return
          clearTimeout(timer)
          removeEventListener('message', onMessage)
          resolve(message.eventData.value ?? null)
        }
        addEventListener('message', onMessage)
        parent.postMessage(JSON.stringify({ eventType: `web_app_${storage}_storage_get_key`, eventData: { req_id: reqId, key } }), '*')
      }),
    { storage, key },
  )

/** One message between the app and the emulator: the app's (`in`), the client's answer (`out`), or the emulator's note. */
export interface HostEvent {
  readonly dir: 'in' | 'out' | 'note'
  readonly type: string
  readonly data?: unknown
}

/** What went between the app and the emulator, in order (the emulator's own record). */
export const hostEvents = (page: Page): Promise<HostEvent[]> =>
  page.evaluate(() => (window as unknown as { __axiomHost: { events: HostEvent[] } }).__axiomHost.events.map(({ dir, type, data }) => ({ dir, type, data })))
