import type { FrameLocator } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { amountOf, expectContains, expectText, nextUser, text } from './helpers.ts'
import { activeBond, launch, makeMember, useStack } from './stack.ts'

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
