import { mkdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FrameLocator, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { nextUser } from './helpers.ts'
import { activeBond, api, launch, makeMember, useStack } from './stack.ts'

/** Screenshots of the main screens for the README, at 390×844: the app's frame only. */
/** `npm run screenshots` writes the README's pictures into docs/screenshots; the test run uses a temp dir. */
const OUT = process.env.SCREENSHOTS_DIR ? join(process.cwd(), process.env.SCREENSHOTS_DIR) : join(tmpdir(), 'axiom-screenshots')
const NAMES = ['dashboard', 'bond', 'staking', 'referral', 'tasks', 're-bonding', 'sell', 'history', 'farming-activation', 'maintenance', 'dashboard-ru']

const stack = useStack()
beforeAll(() => {
  mkdirSync(OUT, { recursive: true })
  for (const n of NAMES) rmSync(join(OUT, `${n}.png`), { force: true })
})

/** Makes the host's app viewport exactly 390×844 and the page that size, so the frame is a phone screen. */
const phone = async (page: Page) => {
  await page.addStyleTag({
    content: '#viewport { position: fixed !important; left: 0; top: 0; width: 390px !important; height: 844px !important; z-index: 100000; flex: none !important; }',
  })
  await page.setViewportSize({ width: 390, height: 844 })
}

const shoot = async (page: Page, app: FrameLocator, name: string) => {
  // Settle: no skeletons, no toasts, fonts loaded.
  await app.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' }).catch(() => undefined)
  await app.locator('.toast').first().waitFor({ state: 'detached', timeout: 6_000 }).catch(() => undefined)
  await app.locator('html').evaluate(() => document.fonts.ready.then(() => window.scrollTo(0, 0)))
  await page.locator('iframe').screenshot({ path: join(OUT, `${name}.png`), animations: 'disabled' })
}

/** A user with bonds, a stake, balances, friends, tasks done, a link and a sale. */
const seedRichUser = async (user: number, name: string) => {
  await makeMember(stack, user, name)
  await stack.server.admin.credit(user, '1250.75')
  await stack.server.admin.credit(user, '84.2', 'referral_balance')
  await stack.server.admin.credit(user, '18', 'task_balance')
  await activeBond(stack, user, 500, 90)
  await activeBond(stack, user, 120, 30)
  const staked = await activeBond(stack, user, 300, 60)
  await api(stack, user, 'POST', '/staking/create', { mint_id: staked })
  const { ref_code } = await api<{ ref_code: string }>(stack, user, 'GET', '/user/me')
  for (const friend of ['Maria', 'Oleg', 'Chen']) await makeMember(stack, nextUser(), friend, ref_code)
  for (const step of ['start', 'validate', 'claim']) await api(stack, user, 'POST', `/task/${step}`, { task_id: 1 })
  await api(stack, user, 'POST', '/farming/create', { amount: 10, days: 30, count_activations: 3, from_ref_balance: true, from_task_balance: false, is_multilink: true, is_for_me: false })
  await api(stack, user, 'POST', '/withdraw/create', { from_ref_balance: false, token_amount: '40', address: `0:${'3f9a'.repeat(16)}` })
}

describe('README screenshots', () => {
  it('writes a PNG of every main screen, the activation modal, maintenance and the Russian dashboard', async () => {
    const user = nextUser()
    await seedRichUser(user, 'Alice')
    const { app, page, errors } = await launch(stack, { user, name: 'Alice' })
    await phone(page)
    await app.getByTestId('mints-list').waitFor()
    await app.getByTestId('candle-chart').waitFor()
    await shoot(page, app, 'dashboard')

    const visit = async (tab: string, screen: string, name: string) => {
      await app.getByTestId(tab).click()
      await app.getByTestId(screen).waitFor()
      await shoot(page, app, name)
    }
    await visit('tab-bond', 'screen-bond', 'bond')
    await visit('tab-staking', 'screen-staking', 'staking')
    await visit('tab-referral', 'screen-referral', 'referral')
    await visit('tab-tasks', 'screen-tasks', 'tasks')
    await app.getByTestId('tab-dashboard').click()
    await visit('link-rebond', 'screen-farming', 're-bonding')
    await app.getByTestId('tab-dashboard').click()
    await app.getByTestId('link-sell').click()
    await app.getByTestId('sell-amount').fill('100')
    await app.getByTestId('sell-address').fill(`0:${'3f9a'.repeat(16)}`)
    await app.getByTestId('sell-preview').waitFor()
    await shoot(page, app, 'sell')
    await app.getByTestId('tab-dashboard').click()
    await visit('link-history', 'screen-history', 'history')
    expect(errors).toEqual([])
    await page.close()

    // The activation modal: a shared link opened by a friend.
    const links = await api<{ items: Array<{ activation_code: string }> }>(stack, user, 'GET', '/farming/')
    const friend = await launch(stack, { user: nextUser(), name: 'Bob', path: `/?farm_code=${links.items[0]!.activation_code}` })
    await phone(friend.page)
    await friend.app.getByTestId('activation-active').waitFor()
    // The sheet has finished sliding in.
    await expect
      .poll(() => friend.app.getByTestId('farming-activation-modal').evaluate((sheet) => sheet.getAnimations().every((a) => a.playState === 'finished')))
      .toBe(true)
    await shoot(friend.page, friend.app, 'farming-activation')
    await friend.page.close()

    // The Russian dashboard.
    const ru = await launch(stack, { user, name: 'Алиса', lang: 'ru' })
    await phone(ru.page)
    await ru.app.getByTestId('mints-list').waitFor()
    await ru.app.getByTestId('candle-chart').waitFor()
    await shoot(ru.page, ru.app, 'dashboard-ru')
    await ru.page.close()

    // Maintenance.
    await stack.server.admin.setMaintenance(true)
    try {
      const m = await launch(stack, { user, member: false })
      await phone(m.page)
      await m.app.getByTestId('maintenance').waitFor()
      await shoot(m.page, m.app, 'maintenance')
      await m.page.close()
    } finally {
      await stack.server.admin.setMaintenance(false)
    }

    for (const n of NAMES) {
      const file = join(OUT, `${n}.png`)
      expect(statSync(file).size, file).toBeGreaterThan(5_000)
    }
  })
})
