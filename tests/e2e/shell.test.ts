import { describe, expect, it } from 'vitest'
import type { FrameLocator, Page } from 'playwright-core'
import { activeBond, launch, makeMember, useStack } from './stack.ts'
import { expectContains, expectText, frameEval, nextUser, reloadedBy, tabLabels, text, userShown, watchRequests } from './helpers.ts'

/** The app's frame: tabs, routes, the host's back button, maintenance, the community gate and the Russian UI. */
const stack = useStack()

/** The tabs drawn highlighted (the `is-active` style), by test id. */
const highlightedTabs = (app: Parameters<typeof tabLabels>[0]) =>
  app.locator('.bottom-nav .tab.is-active').evaluateAll((tabs) => tabs.map((t) => t.getAttribute('data-testid')))

describe('navigation', () => {
  it('every tab shows its screen, with the host back button everywhere but the dashboard', async () => {
    const { app, page, errors } = await launch(stack, { user: nextUser() })
    await app.getByTestId('screen-dashboard').waitFor()
    const back = page.getByTestId('host-back')
    await expect.poll(() => back.isVisible()).toBe(false)
    expect(await tabLabels(app)).toEqual(['Bond AXIOM', 'Staking', 'Dashboard', 'Referral', 'Tasks'])
    expect(await highlightedTabs(app)).toEqual(['tab-dashboard'])

    const tabs: Array<[string, string]> = [
      ['tab-bond', 'screen-bond'],
      ['tab-staking', 'screen-staking'],
      ['tab-referral', 'screen-referral'],
      ['tab-tasks', 'screen-tasks'],
    ]
    for (const [tab, screen] of tabs) {
      await app.getByTestId(tab).click()
      await app.getByTestId(screen).waitFor()
      await expect.poll(() => back.isVisible(), { message: `host back on ${screen}` }).toBe(true)
      expect(await highlightedTabs(app)).toEqual([tab])
    }
    await app.getByTestId('tab-dashboard').click()
    await app.getByTestId('screen-dashboard').waitFor()
    await expect.poll(() => back.isVisible()).toBe(false)
    expect(await highlightedTabs(app)).toEqual(['tab-dashboard'])
    expect(errors).toEqual([])
    await page.close()
  })

  it('renders every child route, and the host back button returns to the previous page', async () => {
    const { app, page, errors } = await launch(stack, { user: nextUser() })
    const back = page.getByTestId('host-back')
    const path = () => frameEval(app, () => location.pathname)
    await app.getByTestId('screen-dashboard').waitFor()

    // From the dashboard: /re-bonding, /sell, /history — each back to the dashboard.
    for (const [link, screen, route] of [
      ['link-rebond', 'screen-farming', '/re-bonding'],
      ['link-sell', 'screen-sell', '/sell'],
      ['link-history', 'screen-history', '/history'],
    ] as const) {
      await app.getByTestId(link).click()
      await app.getByTestId(screen).waitFor()
      expect(await path()).toBe(route)
      expect(await highlightedTabs(app)).toEqual([])
      await expect.poll(() => back.isVisible()).toBe(true)
      await back.click()
      await app.getByTestId('screen-dashboard').waitFor()
      expect(await path()).toBe('/')
      await expect.poll(() => back.isVisible()).toBe(false)
    }

    // Referral children: back goes to /referral, not to the dashboard.
    await app.getByTestId('tab-referral').click()
    await app.getByTestId('screen-referral').waitFor()
    await expectText(app.getByTestId('invite-friends'), 'Invite Friends')
    await app.getByTestId('copy-referral-link').waitFor()
    for (const [link, screen, route] of [
      ['link-referral-rebond', 'screen-farming', '/referral/re-bonding'],
      ['link-referral-sell', 'screen-sell', '/referral/sell'],
    ] as const) {
      await app.getByTestId(link).click()
      await app.getByTestId(screen).waitFor()
      expect(await path()).toBe(route)
      // A child route keeps its tab highlighted.
      expect(await highlightedTabs(app)).toEqual(['tab-referral'])
      await back.click()
      await app.getByTestId('screen-referral').waitFor()
      expect(await path()).toBe('/referral')
    }

    // Tasks children.
    await app.getByTestId('tab-tasks').click()
    await app.getByTestId('screen-tasks').waitFor()
    for (const [link, screen, route] of [
      ['link-tasks-rebond', 'screen-farming', '/tasks/re-bonding'],
      ['link-tasks-sell', 'screen-sell', '/tasks/sell'],
    ] as const) {
      await app.getByTestId(link).click()
      await app.getByTestId(screen).waitFor()
      expect(await path()).toBe(route)
      await back.click()
      await app.getByTestId('screen-tasks').waitFor()
      expect(await path()).toBe('/tasks')
    }

    // Staking child: select.
    await app.getByTestId('tab-staking').click()
    await app.getByTestId('screen-staking').waitFor()
    await app.getByTestId('stake-bond').click()
    await app.getByTestId('screen-select-mint').waitFor()
    expect(await path()).toBe('/staking/select')
    await app.getByTestId('select-mint-empty').waitFor()
    await back.click()
    await app.getByTestId('screen-staking').waitFor()

    // The referral route's top-bar actions belong to the referral route only.
    await app.getByTestId('tab-dashboard').click()
    await app.getByTestId('screen-dashboard').waitFor()
    await expect.poll(() => app.getByTestId('invite-friends').count()).toBe(0)
    expect(errors).toEqual([])
    await page.close()
  })

  it('a deep link with no history: the back button goes to the dashboard', async () => {
    const { app, page, errors } = await launch(stack, { user: nextUser(), path: '/history' })
    await app.getByTestId('screen-history').waitFor()
    const back = page.getByTestId('host-back')
    await expect.poll(() => back.isVisible()).toBe(true)
    await back.click()
    await app.getByTestId('screen-dashboard').waitFor()
    expect(await frameEval(app, () => location.pathname)).toBe('/')
    await expect.poll(() => back.isVisible()).toBe(false)
    expect(errors).toEqual([])
    await page.close()
  })

  it('an unknown path says the page does not exist and leads home; a trailing slash is the same route', async () => {
    const { app, page, errors } = await launch(stack, { user: nextUser(), path: '/nowhere/at-all' })
    await expectContains(app.getByTestId('not-found'), 'This page does not exist')
    expect(await highlightedTabs(app)).toEqual([])
    await app.getByTestId('not-found-home').click()
    await app.getByTestId('screen-dashboard').waitFor()
    expect(await frameEval(app, () => location.pathname)).toBe('/')
    // A route with a trailing slash is the same route.
    await frameEval(app, () => history.pushState({ idx: 1 }, '', '/tasks/?from=test'))
    await app.getByTestId('screen-tasks').waitFor()
    expect(await highlightedTabs(app)).toEqual(['tab-tasks'])
    expect(errors).toEqual([])
    await page.close()
  })

  it('navigation scrolls to the top', async () => {
    const { app, page, errors } = await launch(stack, { user: nextUser() })
    await app.getByTestId('screen-dashboard').waitFor()
    await app.getByTestId('tab-referral').click()
    await app.getByTestId('screen-referral').waitFor()
    await app.getByTestId('tier-table').waitFor()
    await frameEval(app, () => window.scrollTo(0, document.documentElement.scrollHeight))
    await expect.poll(() => frameEval(app, () => window.scrollY), { message: 'the referral screen scrolls' }).toBeGreaterThan(100)
    await app.getByTestId('tab-tasks').click()
    await app.getByTestId('screen-tasks').waitFor()
    await expect.poll(() => frameEval(app, () => window.scrollY)).toBe(0)

    // And a link inside a scrolled screen as well.
    await app.getByTestId('tab-referral').click()
    await app.getByTestId('tier-table').waitFor()
    await frameEval(app, () => window.scrollTo(0, document.documentElement.scrollHeight))
    await expect.poll(() => frameEval(app, () => window.scrollY)).toBeGreaterThan(100)
    await app.getByTestId('link-referral-sell').evaluate((el) => (el as HTMLElement).click())
    await app.getByTestId('screen-sell').waitFor()
    await expect.poll(() => frameEval(app, () => window.scrollY)).toBe(0)
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('the loader', () => {
  it("is on screen, beating, without any of the app's scripts, and gives way to the dashboard once they load", async () => {
    const page = await stack.browser.newPage({ viewport: { width: 1100, height: 900 } })
    // The app's JS does not arrive (a held request would also hold the connection its styles need).
    const scripts = `${new URL(stack.appUrl).origin}/assets/*.js`
    await page.route(scripts, (route) => void route.abort())
    const { app, errors } = await launch(stack, { user: nextUser(), page })

    const loader = app.locator('main.full-screen[role=status] .heartbeat svg')
    await loader.waitFor()
    await expect.poll(() => app.locator('.heartbeat').evaluate((el) => getComputedStyle(el).animationName)).toBe('heartbeat')
    // Styled: centred in the app's viewport, not at its top-left corner.
    const offCentre = await loader.evaluate((el) => {
      const r = el.getBoundingClientRect()
      return [Math.abs(r.left + r.width / 2 - innerWidth / 2), Math.abs(r.top + r.height / 2 - innerHeight / 2)]
    })
    expect(Math.max(...offCentre)).toBeLessThan(40)
    expect(await app.getByTestId('screen-dashboard').count()).toBe(0)

    await page.unroute(scripts)
    await page.reload()
    await app.getByTestId('screen-dashboard').waitFor()
    expect(await app.locator('main.full-screen').count()).toBe(0)
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('a boot step that cannot load', () => {
  it('shows "Something went wrong" with "Try again", in the user\'s language, and trying again opens the app', async () => {
    for (const [lang, title] of [
      ['ru', 'Что-то пошло не так'],
      ['en', 'Something went wrong'],
    ] as const) {
      const page = await stack.browser.newPage({ viewport: { width: 1100, height: 900 } })
      const step = `${new URL(stack.appUrl).origin}/assets/render-app-*.js`
      await page.route(step, (route) => void route.abort())
      const { app } = await launch(stack, { user: nextUser(), lang, page })
      await expectText(app.getByTestId('failed').locator('h1'), title)

      await page.unroute(step)
      await app.getByTestId('failed-retry').click()
      await app.getByTestId('screen-dashboard').waitFor()
      await page.close()
    }
  })
})

describe('a catalogue that cannot load', () => {
  it('opens in English for a Russian speaker whose catalogue does not arrive, and shows the failed screen when English’s does not either', async () => {
    const origin = new URL(stack.appUrl).origin
    // Russian's texts (the first screens' and the others') do not arrive: English stands in.
    const ruPage = await stack.browser.newPage({ viewport: { width: 1100, height: 900 } })
    await ruPage.route(`${origin}/assets/ru-*.js`, (route) => void route.abort())
    const ru = await launch(stack, { user: nextUser(), lang: 'ru', page: ruPage })
    await ru.app.getByTestId('screen-dashboard').waitFor()
    await expect.poll(() => tabLabels(ru.app)).toEqual(['Bond AXIOM', 'Staking', 'Dashboard', 'Referral', 'Tasks'])
    expect(ru.errors).toEqual([])
    await ruPage.close()

    // An English speaker's catalogue does not arrive: no words to speak but the entry's own.
    const enPage = await stack.browser.newPage({ viewport: { width: 1100, height: 900 } })
    const english = `${origin}/assets/en-*.js`
    await enPage.route(english, (route) => void route.abort())
    const en = await launch(stack, { user: nextUser(), lang: 'en', page: enPage })
    await expectText(en.app.getByTestId('failed').locator('h1'), 'Something went wrong')
    await enPage.unroute(english)
    await en.app.getByTestId('failed-retry').click()
    await en.app.getByTestId('screen-dashboard').waitFor()
    await expect.poll(() => tabLabels(en.app)).toEqual(['Bond AXIOM', 'Staking', 'Dashboard', 'Referral', 'Tasks'])
    await enPage.close()
  })
})

describe('maintenance', () => {
  it('shows the maintenance page, and reloads into the dashboard by itself when it ends', async () => {
    const user = nextUser()
    await makeMember(stack, user)
    await stack.server.admin.setMaintenance(true)
    try {
      const { app, page, errors } = await launch(stack, { user, member: false })
      const screen = app.getByTestId('maintenance')
      await screen.waitFor()
      await expectContains(screen, 'We are under maintenance')
      await expectContains(screen, 'Come back later')
      await expect.poll(() => app.getByTestId('screen-dashboard').count()).toBe(0)

      await stack.server.admin.setMaintenance(false)
      // Polled every 10 s: the page reloads into the dashboard without any action (a poll's wait, then a
      // cold boot on a loaded machine).
      await app.getByTestId('screen-dashboard').waitFor({ timeout: 30_000 })
      await expect.poll(() => app.getByTestId('maintenance').count()).toBe(0)
      expect(errors).toEqual([])
      await page.close()
    } finally {
      await stack.server.admin.setMaintenance(false)
    }
  })
})


/** Where `selector` is on screen, in the app's frame: what the user sees move when the page scrolls. */
const screenTop = (app: FrameLocator, selector: string) =>
  app.locator(selector).first().evaluate((el) => Math.round(el.getBoundingClientRect().top))

/** Waits for two frames in the app, so a scroll started by an event already handled has been drawn. */
const twoFrames = (app: FrameLocator) =>
  frameEval(app, () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))))

/** Counts, at the window, the scroll inputs the app received, so a test waits for each to arrive. */
const countInputs = (app: FrameLocator) =>
  frameEval(app, () => {
    const w = window as unknown as { __inputs: Record<string, number> }
    w.__inputs = { wheel: 0, touchmove: 0, keydown: 0 }
    for (const type of Object.keys(w.__inputs)) addEventListener(type, () => w.__inputs[type]!++)
  })
const inputsSeen = (app: FrameLocator, type: 'wheel' | 'touchmove' | 'keydown'): Promise<number> =>
  frameEval(app, () => (window as unknown as { __inputs: Record<string, number> }).__inputs).then((i) => i[type] ?? 0)

/**
 * Makes the page grow by `px` under whatever is on screen, over twenty frames, the way the
 * dashboard grows when its data arrives under the community gate.
 */
let grown = 0
/** Appends (or puts first) an element to the screen's content that grows to `px` over 20 frames. */
const growPage = (app: FrameLocator, px: number, where: 'end' | 'start' = 'end') => {
  const id = String(++grown)
  return app
    .locator('#main')
    .evaluate(
      (main, o) => {
        const grow = document.createElement('div')
        grow.dataset.testid = 'grown'
        grow.dataset.grow = o.id
        if (o.where === 'start') main.prepend(grow)
        else main.append(grow)
      },
      { id, where },
    )
    .then(() =>
      app.locator(`[data-grow="${id}"]`).evaluate((grow, total) => {
        let h = 0
        const step = () => {
          h = Math.min(total, h + Math.ceil(total / 20))
          grow.style.height = `${h}px`
          if (h < total) requestAnimationFrame(step)
        }
        requestAnimationFrame(step)
      }, px),
    )
}

/** A page that takes touch input as well as a mouse and keys. */
const touchPage = () => stack.browser.newPage({ viewport: { width: 1100, height: 900 }, hasTouch: true })

/** A finger dragged by `dy` from (x, y), in page coordinates, in twelve moves. */
const touchDrag = async (page: Page, x: number, y: number, dy: number) => {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] })
  for (let i = 1; i <= 12; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: y + (dy * i) / 12 }] })
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
  await cdp.detach()
}

/** A point in the app's frame, in page coordinates: over the backdrop, above a bottom sheet. */
const overBackdrop = async (page: Page) => {
  const box = (await page.locator('iframe').boundingBox())!
  return { x: box.x + box.width / 2, y: box.y + 80 }
}

/** One of each scroll input a user has, each awaited until the app has received it. */
const scrollEveryWay = async (page: Page, app: FrameLocator, down = true) => {
  const at = await overBackdrop(page)
  const received = async (type: 'wheel' | 'touchmove' | 'keydown', send: () => Promise<unknown>) => {
    const before = await inputsSeen(app, type)
    await send()
    await expect.poll(() => inputsSeen(app, type), { message: `${type} reached the app` }).toBeGreaterThan(before)
    await twoFrames(app)
  }
  await page.mouse.move(at.x, at.y)
  await received('wheel', () => page.mouse.wheel(0, down ? 800 : -800))
  await received('touchmove', () => touchDrag(page, at.x, at.y + (down ? 300 : 0), down ? -300 : 300))
  for (const key of down ? ['PageDown', 'Space', 'ArrowDown', 'End'] : ['PageUp', 'Shift+Space', 'ArrowUp', 'Home']) {
    await received('keydown', () => page.keyboard.press(key))
  }
}

describe('the community gate', () => {
  it('blocks a non-member until they join; Done reloads into the dashboard', async () => {
    const user = nextUser()
    const { app, page, errors } = await launch(stack, { user, member: false })
    const inFlight = watchRequests(page)
    const modal = app.getByTestId('community-modal')
    await modal.waitFor()
    await expectContains(modal, 'Join the community to use AXIOM')
    await expectText(app.getByTestId('community-join'), 'Join the community')
    // Blocking: no close button, and the page under it does not scroll.
    expect(await modal.getByTestId('modal-close').count()).toBe(0)
    expect(await frameEval(app, () => document.body.style.overflow)).toBe('hidden')
    const before = await frameEval(app, () => window.scrollY)
    await countInputs(app)
    await app.locator('body').hover()
    await page.mouse.wheel(0, 800)
    // The wheel reached the app and what it would scroll has been drawn: the page stayed.
    await expect.poll(() => inputsSeen(app, 'wheel')).toBeGreaterThan(0)
    await twoFrames(app)
    expect(await frameEval(app, () => window.scrollY)).toBe(before)

    await app.getByTestId('community-join').click()
    // The host opened the community link and marked the user a member through its join endpoint.
    await expectContains(page.getByTestId('host-log'), 'community joined')
    expect(await page.getByTestId('host-last-link').innerText()).toContain('t.me/axiom_community')
    await expectText(app.getByTestId('community-done'), 'Done')
    await reloadedBy(app, () => app.getByTestId('community-done').click())
    // The reloaded app asked /user/me and settled: no gate now, and the page is unlocked.
    await userShown(app, inFlight)
    expect(await app.getByTestId('community-modal').count()).toBe(0)
    expect(await frameEval(app, () => document.body.style.overflow)).not.toBe('hidden')
    expect(errors).toEqual([])
    await page.close()
  })
})


describe('the page under a modal holds still', () => {
  it('under the community gate: wheel, touch, keys and scrolls into view move nothing while the page grows; after joining the page scrolls', async () => {
    const { app, page, errors } = await launch(stack, { user: nextUser(), member: false, page: await touchPage() })
    const inFlight = watchRequests(page)
    await app.getByTestId('community-modal').waitFor()
    await app.getByTestId('balance-main').waitFor()
    await countInputs(app)
    const top = await screenTop(app, '#main')
    // Keys go to the page itself, not to the gate's button.
    const backdrop = await overBackdrop(page)
    await page.mouse.click(backdrop.x, backdrop.y)
    await frameEval(app, () => (document.activeElement as HTMLElement | null)?.blur())

    await growPage(app, 1200)
    // Something under the gate scrolled into view (a focus, or a driver that hovers the body while it grows).
    await app.locator('body').hover()
    await app.getByTestId('grown').evaluate((el) => el.scrollIntoView({ block: 'end', behavior: 'instant' }))
    expect(await screenTop(app, '#main'), 'after a scroll into view').toBe(top)
    await scrollEveryWay(page, app)
    expect(await screenTop(app, '#main'), 'after wheel, touch and keys').toBe(top)
    await expect.poll(() => frameEval(app, () => document.getElementById('main')!.offsetHeight)).toBeGreaterThan(2000)
    expect(await screenTop(app, '#main'), 'once the page has grown').toBe(top)

    await app.getByTestId('community-join').click()
    await expectText(app.getByTestId('community-done'), 'Done')
    await reloadedBy(app, () => app.getByTestId('community-done').click())
    await userShown(app, inFlight)
    expect(await app.getByTestId('community-modal').count()).toBe(0)
    // Unlocked, each input scrolls again (the page is long enough: it has grown).
    await growPage(app, 1200)
    await expect.poll(() => frameEval(app, () => document.documentElement.scrollHeight)).toBeGreaterThan(2000)
    await countInputs(app)
    // (The touch first, at the top: further down, the price chart takes drags for itself.)
    const at = await overBackdrop(page)
    await touchDrag(page, at.x, at.y + 300, -300)
    await expect.poll(() => frameEval(app, () => window.scrollY), { message: 'touch' }).toBeGreaterThan(0)
    let y = await frameEval(app, () => window.scrollY)
    await page.mouse.move(at.x, at.y)
    await page.mouse.wheel(0, 300)
    await expect.poll(() => frameEval(app, () => window.scrollY), { message: 'wheel' }).toBeGreaterThan(y)
    y = await frameEval(app, () => window.scrollY)
    await page.mouse.click(at.x, at.y)
    await page.keyboard.press('End')
    await expect.poll(() => frameEval(app, () => window.scrollY), { message: 'End' }).toBeGreaterThan(y)
    expect(errors).toEqual([])
    await page.close()
  })

  it('a modal opened down the page: nothing moves the page under it, and on closing it is where the user left it', async () => {
    const user = nextUser()
    await makeMember(stack, user)
    const mintId = await activeBond(stack, user, 40, 30)
    const { app, page, errors } = await launch(stack, { user, page: await touchPage() })
    const row = `[data-testid="mint-status-${mintId}"]`
    await expectText(app.getByTestId(`mint-status-${mintId}`), 'Active')
    await growPage(app, 1500)
    await expect.poll(() => frameEval(app, () => document.documentElement.scrollHeight)).toBeGreaterThan(2500)
    // The user scrolls down to the bond, and the page stays longer than the screen below it.
    await app.getByTestId(`mint-cancel-${mintId}`).scrollIntoViewIfNeeded()
    const y = await frameEval(app, () => window.scrollY)
    expect(y).toBeGreaterThan(0)
    const rowTop = await screenTop(app, row)

    await app.getByTestId(`mint-cancel-${mintId}`).click()
    await app.getByTestId('cancel-bond-modal').waitFor()
    expect(await screenTop(app, row), 'when the modal opens').toBe(rowTop)
    await countInputs(app)
    const backdrop = await overBackdrop(page)
    await page.mouse.click(backdrop.x, backdrop.y - 60)
    await expect.poll(() => app.getByTestId('cancel-bond-modal').count()).toBe(0)
    expect(await frameEval(app, () => window.scrollY), 'closed by its backdrop').toBe(y)

    await app.getByTestId(`mint-cancel-${mintId}`).click()
    await app.getByTestId('cancel-bond-modal').waitFor()
    await frameEval(app, () => (document.activeElement as HTMLElement | null)?.blur())
    await growPage(app, 600)
    await app.getByTestId('grown').last().evaluate((el) => el.scrollIntoView({ block: 'end', behavior: 'instant' }))
    await scrollEveryWay(page, app)
    await scrollEveryWay(page, app, false)
    expect(await screenTop(app, row), 'under the modal').toBe(rowTop)
    // Content above the bond arrives late, while the modal is up: what the user looks at holds still.
    await growPage(app, 120, 'start')
    await expect.poll(() => app.getByTestId('grown').first().evaluate((el) => el.getBoundingClientRect().height)).toBe(120)
    await twoFrames(app)
    expect(await screenTop(app, row), 'under the modal, after content above it grew').toBe(rowTop)
    await app.getByTestId('cancel-bond-keep').click()
    await app.getByTestId('cancel-bond-modal').waitFor({ state: 'detached' })
    expect(await frameEval(app, () => window.scrollY), 'after closing: as far down as the content above grew').toBe(y + 120)
    expect(await screenTop(app, row)).toBe(rowTop)
    expect(errors).toEqual([])
    await page.close()
  })

  it("a modal's own content scrolls when it overflows, and the page under it does not", async () => {
    const { app, page, errors } = await launch(stack, { user: nextUser(), member: false, page: await touchPage() })
    const modal = app.getByTestId('community-modal')
    await modal.waitFor()
    await app.getByTestId('balance-main').waitFor()
    // More text than the sheet can show.
    await modal.evaluate((sheet) => {
      const long = document.createElement('div')
      long.style.minHeight = '2000px'
      long.textContent = 'Long terms'
      sheet.querySelector('.modal__title')!.after(long)
    })
    await expect.poll(() => modal.evaluate((s) => s.scrollHeight > s.clientHeight + 500)).toBe(true)
    const top = await screenTop(app, '#main')
    await countInputs(app)
    const box = (await modal.boundingBox())!
    const iframe = (await page.locator('iframe').boundingBox())!
    const on = { x: iframe.x + box.x + box.width / 2, y: iframe.y + box.y + box.height / 2 }
    await page.mouse.move(on.x, on.y)
    await page.mouse.wheel(0, 300)
    await expect.poll(() => modal.evaluate((s) => s.scrollTop), { message: 'wheel' }).toBeGreaterThan(0)
    const before = await modal.evaluate((s) => s.scrollTop)
    await touchDrag(page, on.x, on.y + 100, -200)
    await expect.poll(() => modal.evaluate((s) => s.scrollTop), { message: 'touch' }).toBeGreaterThan(before)
    // At its end, the sheet's scroll does not pass to the page.
    await modal.evaluate((s) => s.scrollTo({ top: s.scrollHeight }))
    await page.mouse.wheel(0, 800)
    await expect.poll(() => inputsSeen(app, 'wheel')).toBeGreaterThanOrEqual(2)
    await twoFrames(app)
    expect(await screenTop(app, '#main')).toBe(top)
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('the Russian UI', () => {
  it('shows Russian tabs and headings for a ru user', async () => {
    const { app, page, errors } = await launch(stack, { user: nextUser(), lang: 'ru' })
    await app.getByTestId('screen-dashboard').waitFor()
    expect(await tabLabels(app)).toEqual(['Бонд AXIOM', 'Стейкинг', 'Главная', 'Рефералы', 'Задания'])
    await expectContains(app.getByTestId('balance-main'), 'Основной баланс')
    await expectContains(app.getByTestId('balance-referral'), 'Реферальный баланс')
    await expectContains(app.getByTestId('balance-task'), 'Баланс заданий')
    await expect.poll(() => app.getByTestId('screen-dashboard').locator('h2.section__title').allTextContents()).toEqual(['Статистика платформы', 'Мои бонды'])
    await expectContains(app.getByTestId('link-rebond'), 'Ребондинг')
    const heading = (screen: string) => app.getByTestId(screen).locator('h1').first()
    await app.getByTestId('tab-staking').click()
    await expectText(heading('screen-staking'), 'Стейкинг')
    await app.getByTestId('tab-referral').click()
    await expectText(heading('screen-referral'), 'Реферальная программа')
    await expectText(app.getByTestId('invite-friends'), 'Пригласить друзей')
    await app.getByTestId('tab-tasks').click()
    await expectText(heading('screen-tasks'), 'Задания')
    await app.getByTestId('tab-bond').click()
    await expectText(heading('screen-bond'), 'Бонд AXIOM')
    expect(await frameEval(app, () => document.documentElement.lang)).toBe('ru')
    expect(errors).toEqual([])
    await page.close()
  })

  it('shows the community gate in Russian', async () => {
    const { app, page } = await launch(stack, { user: nextUser(), lang: 'ru', member: false })
    const modal = app.getByTestId('community-modal')
    await modal.waitFor()
    await expectContains(modal, 'Вступите в сообщество, чтобы пользоваться AXIOM')
    await expect(app.getByTestId('community-join'), 'Вступить в сообщество')
    await app.getByTestId('community-join').click()
    await expectText(app.getByTestId('community-done'), 'Готово')
    await page.close()
  })
})
