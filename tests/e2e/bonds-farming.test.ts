import type { FrameLocator } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { amountOf, expectContains, expectText, expectToast, frameEval, nextUser, settled, text, toastTexts, watchRequests } from './helpers.ts'
import { activeBond, api, launch, makeMember, useStack } from './stack.ts'

/** Bonds and stakes (without the wallet UI: bonds are created and paid through the API), and farming links. */
const stack = useStack()

const mainBalance = async (app: FrameLocator) => amountOf(await text(app.getByTestId('balance-main-amount')))

describe('bonds and stakes', () => {
  it('an active bond shows in the dashboard with its reward ticking, and can be staked', async () => {
    const user = nextUser()
    await makeMember(stack, user)
    const mintId = await activeBond(stack, user, 50, 30)
    const { app, page, errors } = await launch(stack, { user })
    await app.getByTestId(`mint-row-${mintId}`).waitFor()
    await expectText(app.getByTestId(`mint-status-${mintId}`), 'Active')
    await expectContains(app.getByTestId(`mint-row-${mintId}`), '50.00 AXIOM')
    await expectContains(app.getByTestId(`mint-row-${mintId}`), '30 days')
    const reward = app.getByTestId(`mint-reward-${mintId}`)
    // Rewards tick where the user can see them: look at the bond.
    await reward.scrollIntoViewIfNeeded()
    const first = await text(reward)
    await expect.poll(() => text(reward), { timeout: 4_000 }).not.toBe(first)
    expect(amountOf(await text(reward))).toBeGreaterThan(amountOf(first))

    // Stake it: /staking/select → stake-confirm → toast, the stake in the staking list.
    await app.getByTestId(`mint-stake-${mintId}`).click()
    await app.getByTestId('screen-select-mint').waitFor()
    await app.getByTestId('stake-summary').waitFor()
    await expectContains(app.getByTestId('stake-summary'), '50.00 AXIOM')
    await app.getByTestId('stake-confirm').click()
    await expectToast(app, 'success', 'New Stake created')
    await app.getByTestId('screen-staking').waitFor()
    await app.getByTestId('stakes-list').waitFor()
    const stakes = await api<{ items: Array<{ id: number; status: string }> }>(stack, user, 'GET', '/staking/')
    expect(stakes.items).toHaveLength(1)
    const stakeId = stakes.items[0]!.id
    await expectText(app.getByTestId(`stake-status-${stakeId}`), 'Active')
    const stakeReward = app.getByTestId(`stake-reward-${stakeId}`)
    const s0 = await text(stakeReward)
    await expect.poll(() => text(stakeReward), { timeout: 4_000 }).not.toBe(s0)

    // The bond moved to staking: it leaves the dashboard list; "earned today" ticks.
    await app.getByTestId('tab-dashboard').click()
    await app.getByTestId('screen-dashboard').waitFor()
    await expect.poll(() => app.getByTestId(`mint-row-${mintId}`).count()).toBe(0)
    const earned = app.getByTestId('earned-today')
    const e0 = await text(earned)
    await expect.poll(() => text(earned), { timeout: 4_000 }).not.toBe(e0)
    expect(errors).toEqual([])
    await page.close()
  })

  it('a bond paid while the app is open appears live with the New Bond created toast', async () => {
    const user = nextUser()
    const { app, page, errors } = await launch(stack, { user })
    await app.getByTestId('mints-empty').waitFor()
    const mintId = await activeBond(stack, user, 20, 10)
    await expectToast(app, 'success', 'New Bond created')
    await expectText(app.getByTestId(`mint-status-${mintId}`), 'Active')
    expect(errors).toEqual([])
    await page.close()
  })

  it('cancels a bond through the cancel-bond modal', async () => {
    const user = nextUser()
    await makeMember(stack, user)
    const mintId = await activeBond(stack, user, 40, 30)
    const { app, page, errors } = await launch(stack, { user })
    await expectText(app.getByTestId(`mint-status-${mintId}`), 'Active')
    await expect.poll(() => mainBalance(app)).toBe(100)

    // "Keep it" closes without a change.
    await app.getByTestId(`mint-cancel-${mintId}`).click()
    await app.getByTestId('cancel-bond-modal').waitFor()
    await expectContains(app.getByTestId('cancel-bond-modal'), 'Cancel this bond?')
    await app.getByTestId('cancel-bond-keep').click()
    await app.getByTestId('cancel-bond-modal').waitFor({ state: 'detached' })
    await expectText(app.getByTestId(`mint-status-${mintId}`), 'Active')

    await app.getByTestId(`mint-cancel-${mintId}`).click()
    await app.getByTestId('cancel-bond-confirm').click()
    await app.getByTestId('cancel-bond-modal').waitFor({ state: 'detached' })
    await expectText(app.getByTestId(`mint-status-${mintId}`), 'Cancelled')
    await expect.poll(() => app.getByTestId(`mint-cancel-${mintId}`).count()).toBe(0)
    // The principal less the 10 % penalty is back on the main balance.
    await expect.poll(() => mainBalance(app)).toBe(136)
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('farming links', () => {
  /** Creates a single-use link to share from the referral balance on /referral/re-bonding; returns its code. */
  const createLink = async (app: FrameLocator, amount: string): Promise<string> => {
    await app.getByTestId('tab-referral').click()
    await app.getByTestId('link-referral-rebond').click()
    await app.getByTestId('screen-farming').waitFor()
    await expectText(app.getByTestId('farming-source'), 'Referral balance')
    await app.getByTestId('farming-plan-10').waitFor()
    await app.getByTestId('farming-plan-10').click()
    await app.getByTestId('farming-single').click()
    await app.getByTestId('farming-to-share').click()
    await app.getByTestId('farming-amount').fill(amount)
    await app.getByTestId('farming-preview').waitFor()
    await app.getByTestId('farming-create').click()
    const modal = app.getByTestId('farming-links-modal')
    await modal.waitFor()
    await expectContains(modal, `${amount}.00 AXIOM for 10 days`)
    const code = await text(app.getByTestId('farming-link-code'))
    expect(code).toMatch(/^\w{6,}$/)
    expect(await text(app.getByTestId('farming-link-query'))).toContain(`farm_code=${code}`)
    await app.getByTestId('modal-close').click()
    await modal.waitFor({ state: 'detached' })
    return code
  }

  it('a tap again after the answer was lost makes one link, not two', async () => {
    const a = nextUser()
    await makeMember(stack, a, 'Author')
    await stack.server.admin.credit(a, '30', 'referral_balance')
    const { app, page } = await launch(stack, { user: a })
    await expectText(app.getByTestId('balance-referral-amount'), '30.00')
    await app.getByTestId('tab-referral').click()
    await app.getByTestId('link-referral-rebond').click()
    await app.getByTestId('farming-plan-10').click()
    await app.getByTestId('farming-single').click()
    await app.getByTestId('farming-to-share').click()
    await app.getByTestId('farming-amount').fill('5')
    await app.getByTestId('farming-preview').waitFor()

    // The backend creates the link, but its answer never reaches the phone.
    stack.proxy.fail('/farming/create', { kind: 'lose-answer' })
    try {
      await app.getByTestId('farming-create').click()
      // Behind the app host's proxy a lost answer arrives as a gateway error: the outcome is unknown.
      await expect.poll(() => toastTexts(app, 'error'), { timeout: 30_000 }).toHaveLength(1)
    } finally {
      stack.proxy.clear()
    }
    const afterLoss = await api<{ items: unknown[] }>(stack, a, 'GET', '/farming/')
    expect(afterLoss.items).toHaveLength(1)

    // The user taps again: the same submission, so the backend answers with the link it made.
    await app.getByTestId('farming-create').click()
    await app.getByTestId('farming-links-modal').waitFor()
    await expectContains(app.getByTestId('farming-links-modal'), '5.00 AXIOM for 10 days')
    const links = await api<{ items: Array<{ activation_code: string }> }>(stack, a, 'GET', '/farming/')
    expect(links.items).toHaveLength(1)
    expect(await text(app.getByTestId('farming-link-code'))).toBe(links.items[0]!.activation_code)
    await app.getByTestId('modal-close').click()
    await expectText(app.getByTestId('farming-amount-available'), 'Available: 25.00')
    await page.close()
  })

  it('a shared link activates once for another user, shows REACHED when used and REVOKED when cancelled', async () => {
    const a = nextUser()
    await makeMember(stack, a, 'Author')
    await stack.server.admin.credit(a, '30', 'referral_balance')
    const author = await launch(stack, { user: a })
    await expectText(author.app.getByTestId('balance-referral-amount'), '30.00')
    const code = await createLink(author.app, '5')
    await expectText(author.app.getByTestId('farming-amount-available'), 'Available: 25.00')

    // B activates it with ?farm_code=: the ACTIVE view.
    const b = nextUser()
    const bApp = await launch(stack, { user: b, path: `/?farm_code=${code}` })
    const modal = bApp.app.getByTestId('farming-activation-modal')
    await modal.waitFor()
    await expectText(bApp.app.getByTestId('activation-title'), 'You get it for 10 days')
    await bApp.app.getByTestId('activation-active').waitFor()
    await expectText(bApp.app.getByTestId('activation-amount'), '5.00 AXIOM')
    expect(await text(bApp.app.getByTestId('activation-ton'))).toMatch(/^≈ \d+\.\d{2,4} GRAM$/)
    await bApp.app.getByTestId('activation-close').click()
    await modal.waitFor({ state: 'detached' })
    // The farming bond is B's. (That it also appears live in B's open dashboard is the known bug in
    // tests/e2e/bugs/farming-bond-live.bug.ts; after the relaunch below it is there.)
    const bMints = await api<{ items: Array<{ id: number; status: string }> }>(stack, b, 'GET', '/mint/')
    expect(bMints.items.map((m) => m.status)).toEqual(['active'])

    // The same code again for B (same storage): no modal, checked once per code.
    const inFlight = watchRequests(bApp.page)
    const again = await launch(stack, { user: b, path: `/?farm_code=${code}`, page: bApp.page })
    await again.app.getByTestId('screen-dashboard').waitFor()
    expect(await frameEval(again.app, () => location.search)).toBe(`?farm_code=${code}`)
    await expectText(again.app.getByTestId(`mint-status-${bMints.items[0]!.id}`), 'Active')
    // Once the start-up has settled (its lists answered), a check would have opened the modal.
    await settled(again.app, inFlight)
    expect(await again.app.getByTestId('farming-activation-modal').count()).toBe(0)
    expect(bApp.errors).toEqual([])
    await bApp.page.close()

    // The used single-use link: a further user sees REACHED.
    const d = await launch(stack, { user: nextUser(), path: `/?farm_code=${code}` })
    await d.app.getByTestId('farming-activation-modal').waitFor()
    await expectText(d.app.getByTestId('activation-title'), 'We cannot activate this link.')
    await d.app.getByTestId('activation-reached').waitFor()
    await d.page.close()

    // A second link, cancelled by its author: a third user sees REVOKED. The author's open list is
    // not refreshed by others' activations, so the author opens the app again.
    const reopened = await launch(stack, { user: a, page: author.page })
    await reopened.app.getByTestId('screen-dashboard').waitFor()
    const code2 = await createLink(author.app, '4')
    const links = await api<{ items: Array<{ id: number; activation_code: string }> }>(stack, a, 'GET', '/farming/')
    const link2 = links.items.find((l) => l.activation_code === code2)!
    const link1 = links.items.find((l) => l.activation_code === code)!
    await expectText(author.app.getByTestId(`farming-link-status-${link1.id}`), 'Used up')
    await expectText(author.app.getByTestId(`farming-link-status-${link2.id}`), 'Active')
    await author.app.getByTestId(`farming-link-cancel-${link2.id}`).click()
    await expectText(author.app.getByTestId(`farming-link-status-${link2.id}`), 'Revoked')
    // The unused activation is refunded: 30 − 5 − 4 + 4.
    await expectText(author.app.getByTestId('farming-amount-available'), 'Available: 25.00')

    const c = await launch(stack, { user: nextUser(), path: `/?farm_code=${code2}` })
    await c.app.getByTestId('farming-activation-modal').waitFor()
    await expectText(c.app.getByTestId('activation-title'), 'This link has been revoked')
    await expectText(c.app.getByTestId('activation-revoked'), 'Please contact its author.')
    await c.page.close()
    expect(author.errors).toEqual([])
    await author.page.close()
  })
})
