import type { FrameLocator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { ColorScheme } from '../../stand-ins/telegram-host/themes.ts'
import { axeViolations, describeFindings, quiet, smallTargets, useScheme } from './a11y.ts'
import { connectDevWallet, frameEval, nextUser, phone, settled, watchRequests } from './helpers.ts'
import { activeBond, api, launch, makeMember, useStack } from './stack.ts'

/**
 * What a screen reader and a thumb meet, on a 390 px phone: axe-core (WCAG 2.2 AA and its best
 * practices, text contrast 4.5:1 at every size) on every route and every modal, in Telegram's light
 * and dark themes, in English and Russian; and every tap target at least 44×44 CSS px.
 */
const stack = useStack({ ton: true })

const RAW_ADDRESS = `0:${'3f9a'.repeat(16)}`

/** A user with something on every screen: balances, bonds, a stake, friends, a task done, a link and a sale. */
const seedRichUser = async (user: number, name: string): Promise<{ mintId: number; linkId: number; linkCode: string }> => {
  await makeMember(stack, user, name)
  await stack.server.admin.credit(user, '1250.75')
  await stack.server.admin.credit(user, '84.2', 'referral_balance')
  await stack.server.admin.credit(user, '18', 'task_balance')
  const mintId = await activeBond(stack, user, 500, 90)
  const staked = await activeBond(stack, user, 300, 60)
  await api(stack, user, 'POST', '/staking/create', { mint_id: staked })
  const { ref_code } = await api<{ ref_code: string }>(stack, user, 'GET', '/user/me')
  for (const friend of ['Maria', 'Oleg']) await makeMember(stack, nextUser(), friend, ref_code)
  for (const step of ['start', 'validate', 'claim']) await api(stack, user, 'POST', `/task/${step}`, { task_id: 1 })
  const link = await api<{ id: number; activation_code: string }>(stack, user, 'POST', '/farming/create', {
    amount: 10, days: 30, count_activations: 3, from_ref_balance: true, from_task_balance: false, is_multilink: true, is_for_me: false,
  })
  await api(stack, user, 'POST', '/withdraw/create', { from_ref_balance: false, token_amount: '40', address: RAW_ADDRESS })
  return { mintId, linkId: link.id, linkCode: link.activation_code }
}

interface Route {
  readonly name: string
  /** The taps that lead there from anywhere. */
  readonly via: ReadonlyArray<string>
  readonly screen: string
  /** What the screen shows once filled in, waited for before it is checked. */
  readonly fill?: (app: FrameLocator) => Promise<void>
}

/** Every route of ui/app/routes.tsx (the referral and tasks children are the same screens), with their content shown. */
const ROUTES: ReadonlyArray<Route> = [
  {
    name: 'dashboard',
    via: ['tab-dashboard'],
    screen: 'screen-dashboard',
    fill: async (app) => {
      await app.getByTestId('mints-list').waitFor()
      await app.getByTestId('financial-stats').waitFor()
      await app.getByTestId('chart-preview').locator('svg').waitFor()
    },
  },
  {
    name: 'bond',
    via: ['tab-bond'],
    screen: 'screen-bond',
    fill: async (app) => {
      await app.getByTestId('wallet-chip').waitFor()
      await app.getByTestId('bond-plan-30').click()
      await app.getByTestId('bond-amount').fill('25')
      await app.getByTestId('bond-preview-amount').waitFor()
    },
  },
  { name: 'staking', via: ['tab-staking'], screen: 'screen-staking', fill: (app) => app.getByTestId('stakes-list').waitFor() },
  { name: 'staking/select', via: ['tab-staking', 'stake-bond'], screen: 'screen-select-mint' },
  { name: 'referral', via: ['tab-referral'], screen: 'screen-referral', fill: (app) => app.getByTestId('referral-link').waitFor() },
  { name: 'tasks', via: ['tab-tasks'], screen: 'screen-tasks', fill: (app) => app.getByTestId('tasks-list').waitFor() },
  {
    name: 're-bonding',
    via: ['tab-dashboard', 'link-rebond'],
    screen: 'screen-farming',
    fill: async (app) => {
      await app.getByTestId('farming-links-list').waitFor()
      await app.getByTestId('farming-plan-10').click()
      await app.getByTestId('farming-amount').fill('5')
      await app.getByTestId('farming-preview').waitFor()
    },
  },
  {
    name: 'sell',
    via: ['tab-dashboard', 'link-sell'],
    screen: 'screen-sell',
    fill: async (app) => {
      await app.getByTestId('sell-amount').fill('100')
      await app.getByTestId('sell-address').fill(RAW_ADDRESS)
      await app.getByTestId('sell-preview').waitFor()
    },
  },
  { name: 'history', via: ['tab-dashboard', 'link-history'], screen: 'screen-history', fill: (app) => app.getByTestId('operations-list').waitFor() },
  {
    name: 'history (withdrawals)',
    via: ['tab-dashboard', 'link-history', 'history-tab-withdrawals'],
    screen: 'screen-history',
    fill: (app) => app.getByTestId('withdrawals-list').waitFor(),
  },
]

/** Goes to `route` as the user would, and waits until its content is there and still. */
const visit = async (page: Page, app: FrameLocator, inFlight: () => number, route: Route): Promise<void> => {
  for (const id of route.via) await app.getByTestId(id).click()
  await app.getByTestId(route.screen).waitFor()
  await route.fill?.(app)
  await settled(app, inFlight)
  await quiet(page)
}

/** The rich user's app at 390 px, their dev wallet connected. */
const openRichApp = async (lang: 'en' | 'ru') => {
  const user = nextUser()
  const seeded = await seedRichUser(user, lang === 'ru' ? 'Алиса' : 'Alice')
  const { page, app, errors } = await launch(stack, { user, lang })
  const inFlight = watchRequests(page)
  await phone(page, 390)
  await connectDevWallet(page, app)
  return { user, page, app, errors, inFlight, ...seeded }
}

/** axe's findings on what the app shows now, as lines. */
const axeLines = async (page: Page, where: string): Promise<string[]> => {
  await quiet(page)
  return describeFindings(where, await axeViolations(page))
}

const SCHEMES: ReadonlyArray<ColorScheme> = ['light', 'dark']

describe('accessibility at 390 px', () => {
  it.each(['en', 'ru'] as const)('axe finds nothing on any route, in the light and the dark theme (%s)', async (lang) => {
    const { page, app, errors, inFlight } = await openRichApp(lang)
    const found: string[] = []
    for (const scheme of SCHEMES) {
      await useScheme(page, scheme)
      for (const route of ROUTES) {
        await visit(page, app, inFlight, route)
        found.push(...(await axeLines(page, `${lang} ${scheme} ${route.name}`)))
      }
    }
    expect(found).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  }, 240_000)

  it('axe finds nothing in any modal, in the light and the dark theme; their tap targets are 44×44 px or more', async () => {
    const { page, app, errors, inFlight, mintId, linkId, linkCode } = await openRichApp('en')
    const found: string[] = []
    const small: string[] = []
    /** Opens a modal by the taps given (from anywhere), checks it, closes it with its close button. */
    const check = async (where: string, modal: string, taps: ReadonlyArray<string>, scheme: ColorScheme) => {
      for (const id of taps) {
        // A task's action goes Start, then Check, which opens its modal: tap until the modal is up.
        if ((await app.getByTestId(modal).count()) === 0) await app.getByTestId(id).click()
      }
      await app.getByTestId(modal).waitFor()
      await settled(app, inFlight)
      found.push(...(await axeLines(page, `${scheme} ${where}`)))
      if (scheme === 'light') small.push(...(await smallTargets(app, '.modal__sheet')).map((s) => `${where}: ${s}`))
      // The sheet's focused input first loses focus (it may show its error then, which moves the sheet's top).
      await frameEval(app, () => (document.activeElement as HTMLElement | null)?.blur())
      await app.getByTestId('modal-close').click()
      await app.getByTestId(modal).waitFor({ state: 'detached' })
    }
    for (const scheme of SCHEMES) {
      await useScheme(page, scheme)
      await check('cancel bond', 'cancel-bond-modal', ['tab-dashboard', `mint-cancel-${mintId}`], scheme)
      await check('disconnect wallet', 'disconnect-wallet-modal', ['tab-bond', 'wallet-chip'], scheme)
      await check('farming links', 'farming-links-modal', ['tab-dashboard', 'link-rebond', `farming-link-show-${linkId}`], scheme)
      await visit(page, app, inFlight, ROUTES.find((r) => r.name === 'sell')!)
      await check('sell', 'sell-modal', ['sell-submit'], scheme)
      await check('transfer', 'transfer-modal', ['tab-referral', 'open-transfer'], scheme)
      await check('link verification', 'link-verification-modal', ['tab-tasks', 'task-action-2', 'task-action-2'], scheme)
      await check('add photo', 'add-photo-modal', ['tab-tasks', 'task-action-3', 'task-action-3'], scheme)
    }
    expect(errors).toEqual([])
    await page.close()

    // A friend opening the user's farming link; a new user, not yet in the community.
    const friend = await launch(stack, { user: nextUser(), name: 'Bob', path: `/?farm_code=${linkCode}` })
    await phone(friend.page, 390)
    await friend.app.getByTestId('activation-active').waitFor()
    const stranger = await launch(stack, { user: nextUser(), member: false })
    await phone(stranger.page, 390)
    await stranger.app.getByTestId('community-modal').waitFor()
    for (const scheme of SCHEMES) {
      for (const [who, where] of [
        [friend, 'farming activation'],
        [stranger, 'join the community'],
      ] as const) {
        await useScheme(who.page, scheme)
        found.push(...(await axeLines(who.page, `${scheme} ${where}`)))
        if (scheme === 'light') small.push(...(await smallTargets(who.app, '.modal__sheet')).map((s) => `${where}: ${s}`))
      }
    }
    expect(found).toEqual([])
    expect(small).toEqual([])
    expect([...friend.errors, ...stranger.errors]).toEqual([])
    await friend.page.close()
    await stranger.page.close()
  }, 240_000)

  it.each(['en', 'ru'] as const)('every tap target on every route is at least 44×44 CSS px (%s)', async (lang) => {
    const { page, app, errors, inFlight } = await openRichApp(lang)
    const small: string[] = []
    for (const route of ROUTES) {
      await visit(page, app, inFlight, route)
      small.push(...(await smallTargets(app)).map((s) => `${route.name}: ${s}`))
    }
    // A toast's dismiss button: the referral link copied.
    await app.getByTestId('tab-referral').click()
    await app.getByTestId('copy-referral-link').click()
    await app.getByTestId('toast-success').waitFor()
    small.push(...(await smallTargets(app, '[data-testid="toasts"]')).map((s) => `toast: ${s}`))
    expect(small).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  }, 240_000)
})
