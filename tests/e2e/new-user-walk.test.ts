import type { FrameLocator } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { amountOf, expectContains, expectText, nextUser, text } from './helpers.ts'
import { activeBond, api, launch, makeMember, useStack } from './stack.ts'

/** What a new user noticed on a first walk through the app, each seen as the user sees it. */
const stack = useStack()

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
    const first = amountOf(await text(given))
    expect(first).toBeGreaterThan(0)
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
})
