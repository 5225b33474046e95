import type { FrameLocator } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { amountOf, expectText, expectToast, nextUser, settled, text, watchRequests } from './helpers.ts'
import { activeBond, api, launch, makeMember, useStack } from './stack.ts'

/**
 * What a new user meets on the money screens: the stake summary is the server's quote, the bond
 * quote's daily rate is the one its max reward is made of, and re-bonding from the dashboard
 * spends the main balance. The reference backend's collective bonus is 0.1 %.
 */
const stack = useStack()

interface StakeRecord {
  readonly id: number
  readonly daily_reward: string
  readonly hold_bonus: string
  readonly collective_bonus: string
  readonly investment_bonus: string
  readonly max_reward: string
  readonly tariff_days: number
}
const ratePercent = (s: StakeRecord) => Number(s.daily_reward) + Number(s.hold_bonus) + Number(s.collective_bonus) + Number(s.investment_bonus)

const openSelectMint = async (app: FrameLocator) => {
  await app.getByTestId('tab-staking').click()
  await app.getByTestId('stake-bond').click()
  await app.getByTestId('screen-select-mint').waitFor()
}

describe('staking a bond', () => {
  it('shows the quote from /staking/calculate, and the stake made earns exactly that', async () => {
    const user = nextUser()
    await makeMember(stack, user)
    // A 30-day bond earns 0.7 % + 0.1 % collective = 0.8 %/day: 0.40 AXIOM a day, 12 in all.
    const mintId = await activeBond(stack, user, 50, 30)
    const { app, page, errors } = await launch(stack, { user })
    await openSelectMint(app)
    await app.getByTestId(`select-mint-${mintId}`).click()
    await app.getByTestId('stake-summary').waitFor()

    // Staked, it earns 0.9 % (0.7 + 0.2 for staking) + 0.1 % collective = 1 %/day: 15 AXIOM over 30 days.
    await expectText(app.getByTestId('stake-summary-amount'), '50.00 AXIOM')
    await expectText(app.getByTestId('stake-summary-days'), '30 days')
    await expectText(app.getByTestId('stake-summary-rate'), '1.00%/day')
    await expectText(app.getByTestId('stake-summary-per-day'), '0.50 AXIOM/day')
    await expectText(app.getByTestId('stake-summary-max'), '15.00 AXIOM')

    await app.getByTestId('stake-confirm').click()
    await expectToast(app, 'success', 'New Stake created')
    const stakes = await api<{ items: StakeRecord[] }>(stack, user, 'GET', '/staking/')
    expect(stakes.items).toHaveLength(1)
    const stake = stakes.items[0]!
    expect(ratePercent(stake)).toBeCloseTo(1, 9)
    expect(stake.max_reward).toBe('15')
    expect(stake.tariff_days).toBe(30)
    expect(errors).toEqual([])
    await page.close()
  })

  it('keeps the confirm disabled until the quote is in, and ignores the late quote of a bond the user moved away from', async () => {
    const user = nextUser()
    await makeMember(stack, user)
    const slow = await activeBond(stack, user, 50, 30)
    // 10 days: 0.5 % + 0.2 % staking + 0.1 % collective = 0.8 %/day, 20 × 0.8 % × 10 = 1.6 AXIOM.
    const fast = await activeBond(stack, user, 20, 10)
    const { app, page, errors } = await launch(stack, { user })
    const inFlight = watchRequests(page)
    await openSelectMint(app)
    await app.getByTestId(`select-mint-${slow}`).waitFor()
    const confirm = app.getByTestId('stake-confirm')
    expect(await confirm.isDisabled()).toBe(true)

    const held = stack.proxy.met('/staking/calculate')
    stack.proxy.fail('/staking/calculate', { kind: 'delay', ms: 3_000 })
    try {
      await app.getByTestId(`select-mint-${slow}`).click()
      await app.getByTestId('stake-quote-loading').waitFor()
      expect(await confirm.isDisabled()).toBe(true)
      // The slow bond's quote is held on its way; the user picks the other bond, whose quote is quick.
      await expect.poll(() => stack.proxy.met('/staking/calculate'), { timeout: 10_000 }).toBe(held + 1)
    } finally {
      stack.proxy.clear()
    }
    await app.getByTestId(`select-mint-${fast}`).click()
    await expectText(app.getByTestId('stake-summary-rate'), '0.80%/day')
    await expectText(app.getByTestId('stake-summary-max'), '1.60 AXIOM')
    await expect.poll(() => confirm.isEnabled()).toBe(true)

    // The slow answer arrives (or its call is given up): the summary still shows the bond that is picked.
    await settled(app, inFlight)
    await expectText(app.getByTestId('stake-summary-amount'), '20.00 AXIOM')
    await expectText(app.getByTestId('stake-summary-max'), '1.60 AXIOM')

    await confirm.click()
    await expectToast(app, 'success', 'New Stake created')
    const stakes = await api<{ items: Array<StakeRecord & { total_amount: string }> }>(stack, user, 'GET', '/staking/')
    expect(stakes.items.map((s) => [s.total_amount, s.max_reward, ratePercent(s).toFixed(4)])).toEqual([['20', '1.6', '0.8000']])
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('the bond quote', () => {
  it('shows the daily rate its max reward is made of, with a unit on every figure', async () => {
    const user = nextUser()
    const { app, page, errors } = await launch(stack, { user })
    await app.getByTestId('tab-bond').click()
    await app.getByTestId('screen-bond').waitFor()
    await app.getByTestId('bond-plan-30').click()
    await app.getByTestId('bond-amount').fill('100')
    await app.getByTestId('bond-preview-max').waitFor()

    await expectText(app.getByTestId('bond-preview-amount'), '100.00 AXIOM')
    await expectText(app.getByTestId('bond-preview-days'), '30 days')
    expect(await text(app.getByTestId('bond-preview-ton'))).toMatch(/^\d+\.\d{2,4} GRAM$/)
    // 0.7 % (30-day plan) + 0.1 % collective; 100 × 0.8 % × 30 days = 24.
    await expectText(app.getByTestId('bond-preview-daily'), '0.80%/day')
    await expectText(app.getByTestId('bond-preview-per-day'), '0.80 AXIOM/day')
    await expectText(app.getByTestId('bond-preview-max'), '24.00 AXIOM')
    await expectText(app.getByTestId('bond-preview-expected'), '24.00 AXIOM')
    const rate = amountOf(await text(app.getByTestId('bond-preview-daily')))
    const max = amountOf(await text(app.getByTestId('bond-preview-max')))
    expect((100 * rate * 30) / 100).toBeCloseTo(max, 9)
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('re-bonding', () => {
  it('from the dashboard, a new user funds a link from the main balance; referral and tasks spend their own', async () => {
    const user = nextUser()
    const { app, page, errors } = await launch(stack, { user })
    await expect.poll(async () => amountOf(await text(app.getByTestId('balance-main-amount')))).toBe(100)
    await app.getByTestId('link-rebond').click()
    await app.getByTestId('screen-farming').waitFor()
    await expectText(app.getByTestId('farming-source'), 'Main balance')
    await expectText(app.getByTestId('farming-amount-available'), 'Available: 100.00')

    await app.getByTestId('farming-plan-10').click()
    await app.getByTestId('farming-multi').click()
    await app.getByTestId('farming-activations').fill('3')
    await app.getByTestId('farming-to-share').click()
    // 3 activations of 40 need 120: more than the main balance holds.
    await app.getByTestId('farming-amount').fill('40')
    await expectText(app.getByTestId('farming-fund'), '120.00 AXIOM')
    await app.getByTestId('farming-over-balance').waitFor()
    expect(await app.getByTestId('farming-create').isDisabled()).toBe(true)

    await app.getByTestId('farming-amount').fill('10')
    await expectText(app.getByTestId('farming-fund'), '30.00 AXIOM')
    expect(await app.getByTestId('farming-over-balance').count()).toBe(0)
    // The 10-day plan's 0.5 % + 0.1 % collective.
    await expectText(app.getByTestId('farming-preview-daily'), '0.60%/day')
    await app.getByTestId('farming-create').click()
    const modal = app.getByTestId('farming-links-modal')
    await modal.waitFor()
    await app.getByTestId('modal-close').click()
    await modal.waitFor({ state: 'detached' })
    await expectText(app.getByTestId('farming-amount-available'), 'Available: 70.00')

    const links = await api<{ items: Array<{ id: number; amount: string; count_activations: number; from_ref_balance: boolean; from_task_balance: boolean }> }>(
      stack,
      user,
      'GET',
      '/farming/',
    )
    expect(links.items).toMatchObject([{ amount: '10', count_activations: 3, from_ref_balance: false, from_task_balance: false }])
    await expectText(app.getByTestId(`farming-link-source-${links.items[0]!.id}`), 'Main balance')
    const me = await api<{ balance_token: string; referral_balance: string; task_balance: string }>(stack, user, 'GET', '/user/me')
    expect(me).toMatchObject({ balance_token: '70', referral_balance: '0', task_balance: '0' })

    // The other two re-bonding screens spend the referral and the task balance.
    await stack.server.admin.credit(user, '5', 'task_balance')
    await app.getByTestId('tab-referral').click()
    await app.getByTestId('link-referral-rebond').click()
    await expectText(app.getByTestId('farming-source'), 'Referral balance')
    await expectText(app.getByTestId('farming-amount-available'), 'Available: 0.00')
    await app.getByTestId('tab-tasks').click()
    await app.getByTestId('link-tasks-rebond').click()
    await expectText(app.getByTestId('farming-source'), 'Task balance')
    await expectText(app.getByTestId('farming-amount-available'), 'Available: 5.00')
    expect(errors).toEqual([])
    await page.close()
  })
})
