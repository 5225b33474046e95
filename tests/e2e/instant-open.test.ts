import type { FrameLocator, Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { amountOf, expectText, frameEval, nextUser, text, telegramStorage, hostEvents } from './helpers.ts'
import { activeBond, launch, makeMember, type Stack, useStack } from './stack.ts'

/**
 * An instant open: the last dashboard a user saw is kept on the device (Telegram's DeviceStorage on a
 * 9.0+ client, localStorage on older ones) and painted at once on the next open, before sign-in,
 * marked with its age, until the fresh figures replace it; never for another user. The backend is
 * slowed by the stack's fault proxy, so what shows before its answers can only come from the device.
 */
const stack = useStack()

/** Its key on the device (core/domain/dashboard-snapshot.ts). */
const KEY = 'axiom_dashboard'
/** How long every /api answer is held on the reopen: well beyond the kept dashboard's paint. */
const SLOW_MS = 6_000
/** How long the maintenance check is held on another user's launch (twice: before the wipe's reload and after). */
const SWITCH_SLOW_MS = 3_000

afterEach(() => stack.proxy.clear())

/**
 * The backend slowed for what the dashboard's first figures need: the user (sign-in's /user/me), the
 * bonds and plans, the price. Not every /api call: vite preview speaks HTTP/1.1, six connections to
 * the host, and the six calls a returning user's page starts at once would then hold the app's own
 * files behind them too (users get HTTP/2, where they do not queue).
 */
const slowBackend = () => {
  for (const prefix of ['/user/me', '/mint/', '/price/']) stack.proxy.fail(prefix, { kind: 'delay', ms: SLOW_MS })
}

/**
 * A page whose every frame reports each figure the balance cards show, from the first one each
 * document paints (through a reload, too): what a user could have seen, not what is there at the end.
 */
const watchedPage = async (s: Stack) => {
  const page = await s.browser.newPage({ viewport: { width: 1100, height: 900 } })
  const seen: string[] = []
  await page.exposeBinding('__axiomFigureSeen', (_source, figure: string) => void seen.push(figure))
  await page.addInitScript(() => {
    const report = (window as unknown as { __axiomFigureSeen?: (f: string) => void }).__axiomFigureSeen
    const reported = new Set<string>()
    const record = () => {
      for (const el of document.querySelectorAll('[data-testid^="balance-"][data-testid$="-amount"]')) {
        const figure = `${el.getAttribute('data-testid')}=${el.textContent?.trim() ?? ''}`
        if (/\d/.test(figure.split('=')[1]!) && !reported.has(figure)) {
          reported.add(figure)
          report?.(figure)
        }
      }
    }
    new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true })
  })
  return { page, seen }
}

/** Closes the app as the user does in Telegram (the emulator's close button): its document goes. */
const closeApp = async (page: Page) => {
  await page.getByTestId('host-close').click()
  await page.getByTestId('host-closed').waitFor()
}

/** Launches the app again from the emulator's form, as Telegram does on the next open, keeping the device's state. */
const reopen = async (page: Page, user: number, version: string) => {
  await page.getByTestId('host-user-id').fill(String(user))
  await page.getByTestId('host-version').fill(version)
  await page.getByTestId('host-launch').click()
}

const deviceStorage = (app: FrameLocator, key: string): Promise<string | null> => telegramStorage(app, 'device', key)

const localSnapshot = (app: FrameLocator): Promise<string | null> => app.locator('html').evaluate((_, key) => localStorage.getItem(key), KEY)

/** Whose dashboard is kept, and its main balance, from the kept text; null when nothing is. */
const keptOf = (value: string | null): { user: string; balance: string } | null => {
  if (value === null) return null
  const kept = JSON.parse(value) as { user: string; balances: { balance_token: unknown } }
  return { user: kept.user, balance: String(kept.balances.balance_token) }
}

/** The methods the app posted to the emulator whose name starts with `prefix`. */
const posted = async (page: Page, prefix: string): Promise<string[]> =>
  (await hostEvents(page)).filter((e) => e.dir === 'in' && e.type.startsWith(prefix)).map((e) => e.type)

const mainAmount = (app: FrameLocator) => app.getByTestId('balance-main-amount')
const keptAge = (app: FrameLocator) => app.getByTestId('dashboard-kept-age')

/** The dashboard with its fresh figures: the main balance at `balance`, no age mark. */
const freshDashboard = async (app: FrameLocator, balance: number) => {
  await app.getByTestId('screen-dashboard').waitFor()
  await expect.poll(async () => amountOf(await text(mainAmount(app))), { timeout: 20_000 }).toBe(balance)
  expect(await keptAge(app).count()).toBe(0)
}

/**
 * The reopen with the backend slowed: the kept figures at once, marked "Updated N s ago" (its N
 * counting), the app taking no input and the money screens' ways disabled; then the fresh figures
 * without the mark.
 */
const keptThenFresh = async (app: FrameLocator, kept: number, fresh: number, bonds: ReadonlyArray<number> = []) => {
  await keptAge(app).waitFor({ timeout: SLOW_MS })
  expect(amountOf(await text(mainAmount(app)))).toBe(kept)
  expect(await text(keptAge(app))).toMatch(/^Updated \d+ s ago$/)
  // Painted before sign-in: the whole app inert, and the ways to the money screens disabled.
  expect(await app.getByTestId('app-kept').count()).toBe(1)
  expect(await app.getByTestId('link-sell').getAttribute('aria-disabled')).toBe('true')
  const first = await text(keptAge(app))
  await expect.poll(() => text(keptAge(app)), { timeout: 3_000 }).not.toBe(first)
  // The bonds as the list showed them, without their actions.
  if (bonds.length > 0) {
    for (const id of bonds) await app.getByTestId('kept-mints-list').getByTestId(`mint-row-${id}`).waitFor()
    expect(await app.getByTestId('kept-mints-list').getByRole('button').count()).toBe(0)
  }
  await freshDashboard(app, fresh)
  // The mark goes with the fresh figures; the inert wrapper with the app's ready phase, a render later.
  await expect.poll(() => app.getByTestId('app-kept').count()).toBe(0)
  expect(await app.getByTestId('link-sell').getAttribute('aria-disabled')).toBeNull()
}

describe('an instant open: the last dashboard, kept on the device', () => {
  it('a 9.1 client keeps it in DeviceStorage and paints it at once on the next open, then the fresh figures', async () => {
    const user = nextUser()
    await makeMember(stack, user)
    const bond = await activeBond(stack, user, 10)
    const { page } = await watchedPage(stack)
    const { app, errors } = await launch(stack, { user, version: '9.1', page })
    await app.getByTestId(`mint-row-${bond}`).waitFor()
    await expect.poll(async () => text(mainAmount(app))).not.toBe('')
    const before = amountOf(await text(mainAmount(app)))
    await expect.poll(async () => keptOf(await deviceStorage(app, KEY))).toEqual({ user: String(user), balance: String(before) })
    expect(await localSnapshot(app)).toBeNull()

    await closeApp(page)
    // Meanwhile the balance moves, and the next open meets a slow network.
    await stack.server.admin.credit(user, '20')
    slowBackend()
    await reopen(page, user, '9.1')
    await keptThenFresh(app, before, before + 20, [bond])
    // And the fresh dashboard is kept in its place.
    stack.proxy.clear()
    await expect.poll(async () => keptOf(await deviceStorage(app, KEY))).toEqual({ user: String(user), balance: String(before + 20) })
    expect(errors).toEqual([])
    await page.close()
  })

  it('a 7.0 client keeps it in localStorage (no DeviceStorage asked) and paints it the same way', async () => {
    const user = nextUser()
    const { page } = await watchedPage(stack)
    const { app, errors } = await launch(stack, { user, version: '7.0', page })
    await freshDashboard(app, 100)
    await expect.poll(async () => keptOf(await localSnapshot(app))).toEqual({ user: String(user), balance: '100' })

    await closeApp(page)
    await stack.server.admin.credit(user, '20')
    slowBackend()
    await reopen(page, user, '7.0')
    await keptThenFresh(app, 100, 120)
    expect(await posted(page, 'web_app_device_storage_')).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  })

  // The first user on a 7.0 client leaves their dashboard in localStorage; the second opens on 7.0, or on
  // 9.1, whose DeviceStorage is empty and which then reads a copy kept before the client's update.
  for (const version of ['7.0', '9.1'])
    it(`another user launched on the same device (${version}) never sees the first one’s figures, and they are gone`, async () => {
      const first = nextUser()
      const second = nextUser()
      await makeMember(stack, second)
      // The first user's figures, unlike any the second can have.
      await makeMember(stack, first)
      await stack.server.admin.credit(first, '12.345678')
      await stack.server.admin.credit(first, '7.77', 'referral_balance')
      const { page, seen } = await watchedPage(stack)
      const { app, errors } = await launch(stack, { user: first, version: '7.0', page })
      await freshDashboard(app, 112.345678)
      await expect.poll(async () => keptOf(await localSnapshot(app))).toEqual({ user: String(first), balance: '112.345678' })

      // A slow maintenance check: sign-in, which finds the switch and wipes the device, waits for it (and
      // the reloaded page's check waits again), while the kept dashboard would already have painted.
      stack.proxy.fail('/maintenance/', { kind: 'delay', ms: SWITCH_SLOW_MS })
      seen.length = 0
      await reopen(page, second, version)
      await freshDashboard(app, 100)
      stack.proxy.clear()
      // Every figure the second user's app painted is theirs.
      expect(seen.filter((f) => /112[.,]34|7[.,]77/.test(f))).toEqual([])
      expect(seen.some((f) => f.startsWith('balance-main-amount='))).toBe(true)
      // Nothing of the first user's is left on the device: the second user's own dashboard is kept now.
      await expect.poll(async () => keptOf(await localSnapshot(app))?.user ?? null).not.toBe(String(first))
      if (version === '9.1') await expect.poll(async () => keptOf(await deviceStorage(app, KEY))).toEqual({ user: String(second), balance: '100' })
      else await expect.poll(async () => keptOf(await localSnapshot(app))).toEqual({ user: String(second), balance: '100' })
      expect(await frameEval(app, () => localStorage.getItem('user'))).toBe(String(second))
      expect(errors).toEqual([])
      await page.close()
    })
})
