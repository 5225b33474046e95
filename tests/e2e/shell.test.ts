import { describe, expect, it } from 'vitest'
import { launch, makeMember, useStack } from './stack.ts'
import { expectContains, expectText, frameEval, nextUser, tabLabels, text } from './helpers.ts'

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
      // Polled every 10 s: the page reloads into the dashboard without any action.
      await app.getByTestId('screen-dashboard').waitFor({ timeout: 15_000 })
      await expect.poll(() => app.getByTestId('maintenance').count()).toBe(0)
      expect(errors).toEqual([])
      await page.close()
    } finally {
      await stack.server.admin.setMaintenance(false)
    }
  })
})

describe('the community gate', () => {
  it('blocks a non-member until they join; Done reloads into the dashboard', async () => {
    const user = nextUser()
    const { app, page, errors } = await launch(stack, { user, member: false })
    const modal = app.getByTestId('community-modal')
    await modal.waitFor()
    await expectContains(modal, 'Join the community to use AXIOM')
    await expectText(app.getByTestId('community-join'), 'Join the community')
    // Blocking: no close button, and the page under it does not scroll.
    expect(await modal.getByTestId('modal-close').count()).toBe(0)
    expect(await frameEval(app, () => document.body.style.overflow)).toBe('hidden')
    const before = await frameEval(app, () => window.scrollY)
    await app.locator('body').hover()
    await page.mouse.wheel(0, 800)
    await expect.poll(() => frameEval(app, () => window.scrollY)).toBe(before)

    await app.getByTestId('community-join').click()
    // The host opened the community link and marked the user a member through its join endpoint.
    await expectContains(page.getByTestId('host-log'), 'community joined')
    expect(await page.getByTestId('host-last-link').innerText()).toContain('t.me/axiom_community')
    await expectText(app.getByTestId('community-done'), 'Done')
    await app.getByTestId('community-done').click()
    await app.getByTestId('screen-dashboard').waitFor()
    await expect.poll(() => app.getByTestId('community-modal').count()).toBe(0)
    await expect.poll(() => frameEval(app, () => document.body.style.overflow)).not.toBe('hidden')
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
