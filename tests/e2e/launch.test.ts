import { describe, expect, it } from 'vitest'
import { amountOf, errorHaptics, expectToast, frameEval, nextUser } from './helpers.ts'
import { api, launch, useStack } from './stack.ts'

const stack = useStack()

describe('launching the mini app from the Telegram host', () => {
  it('lands on the dashboard with the user’s balances and the live price', async () => {
    const { app, page, errors } = await launch(stack, { user: 7001, name: 'Alice' })
    await app.getByTestId('screen-dashboard').waitFor()
    await expect.poll(() => app.getByTestId('balance-main-amount').innerText()).toMatch(/\d/)
    await expect.poll(() => app.getByTestId('price').innerText()).toMatch(/GRAM/)
    expect(errors).toEqual([])
    await page.close()
  })

  it('opened at a path, the first thing read from the app is the app at that path (the launch document is gone)', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 1100, height: 900 } })
    // The app's document at the path comes slowly (as on a slow network): time for the launch
    // document to load and be read in its place.
    await page.route(
      (url) => url.pathname === '/referral',
      async (route) => {
        await new Promise((r) => setTimeout(r, 1_500))
        await route.continue()
      },
    )
    const { app } = await launch(stack, { user: nextUser(), path: '/referral?tab=1', page })
    // Read at once, with no wait on a condition: the document that answers is the one at the path.
    expect(await frameEval(app, () => location.pathname + location.search)).toBe('/referral?tab=1')
    await app.getByTestId('invite-friends').waitFor()
    await page.close()
  })
})

describe('the referral link', () => {
  it('copied or shared by a user and opened by a new friend, registers the friend under that user', async () => {
    const referrer = nextUser()
    // A client before 8.0, so that 'Invite Friends' shares through the t.me share link the host logs.
    const a = await launch(stack, { user: referrer, name: 'Ada', version: '7.10' })
    // The app runs in the host's iframe: Chromium asks the top-level page's origin for the clipboard.
    await a.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(stack.host.url).origin })
    await a.app.getByTestId('tab-referral').click()
    await a.app.getByTestId('copy-referral-link').click()
    // The toast comes once the clipboard has taken the link (the write is asynchronous).
    await expectToast(a.app, 'success', 'Referral link copied to clipboard')
    const copied = await frameEval(a.app, () => navigator.clipboard.readText())
    const { ref_code } = await api<{ ref_code: string }>(stack, referrer, 'GET', '/user/me')
    // The mini app's direct link (the build's dev names: bot axiom_dev_bot, app 'app'), started with the code.
    expect(copied).toBe(`https://t.me/axiom_dev_bot/app?startapp=${ref_code}`)

    await a.app.getByTestId('invite-friends').click()
    await expect.poll(() => a.page.getByTestId('host-last-link').innerText()).toContain('/share/url')
    const shared = new URL(await a.page.getByTestId('host-last-link').innerText()).searchParams.get('url')
    expect(shared).toBe(copied)
    await a.page.close()

    // The friend taps it: Telegram opens the mini app with the link's startapp as the start parameter.
    const friend = nextUser()
    const b = await launch(stack, { user: friend, name: 'Ben', link: copied, member: false })
    // New, so not yet a member: the gate shows once the app has registered Ben.
    await b.app.getByTestId('community-modal').waitFor()
    expect(b.errors).toEqual([])
    await b.page.close()

    const referrals = await api<{ items: Array<{ name: string }> }>(stack, referrer, 'GET', '/user/referrals')
    expect(referrals.items.map((r) => r.name)).toEqual(['Ben'])
  })

  it('a farming link is not a referral: the app registers with no ref_code', async () => {
    const friend = nextUser()
    const page = await stack.browser.newPage({ viewport: { width: 1100, height: 900 } })
    const registrations: unknown[] = []
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/auth/register')) registrations.push(r.postDataJSON())
    })
    const b = await launch(stack, { user: friend, name: 'Cy', link: 'https://t.me/axiom_dev_bot/app?startapp=farm_K7Q2M9XW4P', member: false, page })
    await b.app.getByTestId('community-modal').waitFor()
    await page.close()
    expect(registrations).toEqual([{ init_data: expect.stringContaining('start_param=farm_K7Q2M9XW4P'), ref_code: null }])
  })
})

describe('a returning user', () => {
  it('opens straight on their dashboard: one /user/me (started with the page) and no registration, then the back button and haptics work once the Telegram SDK has loaded', async () => {
    const user = nextUser()
    const first = await launch(stack, { user, name: 'Rita' })
    await first.app.getByTestId('screen-dashboard').waitFor()
    await expect.poll(() => first.app.getByTestId('balance-main-amount').innerText()).toMatch(/\d/)
    const before = amountOf(await first.app.getByTestId('balance-main-amount').innerText())
    await stack.server.admin.credit(user, '321.5')

    // Telegram opens the app again in the same browser: its cookies and local storage are still there.
    const { page } = first
    const signIn: string[] = []
    const onRequest = (r: { url(): string; method(): string }) => {
      const path = new URL(r.url()).pathname
      if (/^\/api\/(user\/me|auth\/|maintenance\/)/.test(path)) signIn.push(`${r.method()} ${path}`)
    }
    page.on('request', onRequest)
    const { app, errors } = await launch(stack, { user, page, member: false })
    await app.getByTestId('screen-dashboard').waitFor()
    // The balance as the backend holds it now, not a copy kept from the first visit.
    await expect.poll(async () => amountOf(await app.getByTestId('balance-main-amount').innerText())).toBeCloseTo(before + 321.5, 6)
    page.off('request', onRequest)
    expect(signIn.filter((r) => r !== 'GET /api/maintenance/')).toEqual(['GET /api/user/me'])
    expect(signIn.filter((r) => r === 'GET /api/maintenance/')).toHaveLength(1)

    // The SDK loads after the dashboard painted; the host's back button and the error haptic then reach Telegram.
    const back = page.getByTestId('host-back')
    await app.getByTestId('tab-referral').click()
    await app.getByTestId('screen-referral').waitFor()
    await expect.poll(() => back.isVisible()).toBe(true)
    await frameEval(app, () => {
      navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'))
    })
    const haptics = await errorHaptics(page)
    await app.getByTestId('copy-referral-link').click()
    await expect.poll(() => errorHaptics(page)).toBe(haptics + 1)
    await back.click()
    await app.getByTestId('screen-dashboard').waitFor()
    await expect.poll(() => back.isVisible()).toBe(false)
    expect(errors).toEqual([])
    await page.close()
  })
})
