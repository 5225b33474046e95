import type { FrameLocator } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { amountProblems, expectContains, expectText, nextUser, shownAmount, text } from './helpers.ts'
import { activeBond, api, launch, makeMember, useStack } from './stack.ts'

/** Amounts as spec §5 shows them on every screen, and the sale preview's address check. */
const stack = useStack()

const ADDRESS = `0:${'3f9a'.repeat(16)}`
/** A well-known friendly address with its last character changed: the checksum no longer matches. */
const BAD_CHECKSUM = 'EQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGA'

interface Me {
  readonly balance_token: string
  readonly referral_balance: string
  readonly task_balance: string
  readonly ref: { readonly turnover?: string }
}

/** Waits until the screen has its figures, then expects none of them to break §5. */
const expectAmountsRight = async (app: FrameLocator, screen: string) => {
  await app.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' }).catch(() => undefined)
  expect(await amountProblems(app), screen).toEqual([])
}

describe('amounts on every screen (spec §5)', () => {
  it('are cut to 2, 4 or 6 decimals (rewards 10), never rounded, with thousands grouped by spaces', async () => {
    const user = nextUser()
    await makeMember(stack, user, 'Alice')
    // Balances and bonds with more decimals than shown, where rounding would show a different figure.
    await stack.server.admin.credit(user, '1234.5678999')
    await stack.server.admin.credit(user, '84.999', 'referral_balance')
    await stack.server.admin.credit(user, '18.996', 'task_balance')
    const odd = await activeBond(stack, user, 120.129, 30)
    await activeBond(stack, user, 500, 90)
    const staked = await activeBond(stack, user, 300.5, 60)
    await api(stack, user, 'POST', '/staking/create', { mint_id: staked })
    // A friend's bond: turnover 55.555, and a 5 % referral bonus of 2.77775.
    const { ref_code } = await api<{ ref_code: string }>(stack, user, 'GET', '/user/me')
    const friend = nextUser()
    await makeMember(stack, friend, 'Maria', ref_code)
    await activeBond(stack, friend, 55.555, 30)
    await api(stack, user, 'POST', '/farming/create', {
      amount: 10.5,
      days: 30,
      count_activations: 1,
      from_ref_balance: true,
      from_task_balance: false,
      is_multilink: false,
      is_for_me: false,
    })
    await api(stack, user, 'POST', '/withdraw/create', { from_ref_balance: false, token_amount: '40.999', address: ADDRESS })
    const me = await api<Me>(stack, user, 'GET', '/user/me')
    expect(me.referral_balance).toBe('77.27675')

    const { app, page, errors } = await launch(stack, { user, name: 'Alice' })

    // Dashboard: balances, today's earnings (ticking), bonds with ticking rewards, price, stats.
    await app.getByTestId(`mint-row-${odd}`).waitFor()
    await app.getByTestId('financial-stats').locator('dd').first().waitFor()
    await expectText(app.getByTestId('balance-referral-amount'), '77.27')
    await expectText(app.getByTestId('balance-task-amount'), shownAmount(me.task_balance))
    await expectContains(app.getByTestId(`mint-row-${odd}`), '120.12 AXIOM')
    await expect.poll(() => text(app.getByTestId('earned-today'))).toMatch(/^\+\d+\.\d{2,6} AXIOM$/)
    await expect.poll(() => text(app.getByTestId('balance-main-amount'))).toMatch(/^\d{1,3}( \d{3})*\.\d{2,6}$/)
    await expectAmountsRight(app, 'dashboard')

    // Bond: the purchase preview.
    await app.getByTestId('tab-bond').click()
    await app.getByTestId('bond-amount').fill('12.34')
    await app.getByTestId('bond-preview-ton').waitFor()
    await expectAmountsRight(app, 'bond')

    // Staking, and the stake summary of a bond.
    await app.getByTestId('tab-staking').click()
    await app.getByTestId('stakes-list').waitFor()
    await expectAmountsRight(app, 'staking')
    await app.getByTestId('stake-bond').click()
    await app.getByTestId(`select-mint-${odd}`).click()
    await expectContains(app.getByTestId('stake-summary'), '120.12 AXIOM')
    await expectAmountsRight(app, 'select-mint')

    // Referral: the level's turnover, the balance, the tier table, the friends.
    await app.getByTestId('tab-referral').click()
    await app.getByTestId('referrals-list').waitFor()
    await expectText(app.getByTestId('referral-balance-amount'), '77.27')
    await expectContains(app.getByTestId('referral-level'), `${shownAmount(me.ref.turnover ?? '')}`)
    expect(await Promise.all([1, 2, 8].map((l) => text(app.getByTestId(`tier-threshold-${l}`))))).toEqual(['0.00 AXIOM', '50.00 AXIOM', '20 000.00 AXIOM'])
    expect(await Promise.all([1, 2, 8].map((l) => text(app.getByTestId(`tier-bonus-${l}`))))).toEqual(['5.00%', '6.00%', '12.00%'])
    await expectAmountsRight(app, 'referral')

    // Tasks, re-bonding (its preview and the link made above), sell (its preview and the confirmation).
    await app.getByTestId('tab-tasks').click()
    await app.getByTestId('tasks-list').waitFor()
    await expectText(app.getByTestId('tasks-balance-amount'), '18.99')
    await expectAmountsRight(app, 'tasks')
    await app.getByTestId('link-tasks-rebond').click()
    await app.getByTestId('farming-amount').fill('5')
    await app.getByTestId('farming-preview').waitFor()
    await expectAmountsRight(app, 're-bonding')
    await app.getByTestId('tab-dashboard').click()
    await app.getByTestId('link-sell').click()
    await app.getByTestId('sell-amount').fill('10')
    await app.getByTestId('sell-address').fill(ADDRESS)
    await app.getByTestId('sell-preview').waitFor()
    await expectAmountsRight(app, 'sell')
    await app.getByTestId('sell-submit').click()
    await app.getByTestId('sell-modal').waitFor()
    await expectAmountsRight(app, 'sell modal')
    await app.getByTestId('sell-cancel').click()

    // History: operations and withdrawals (4 decimals).
    await app.getByTestId('tab-dashboard').click()
    await app.getByTestId('link-history').click()
    await app.getByTestId('operations-list').waitFor()
    await expectAmountsRight(app, 'history')
    // A debit carries the typographic minus, as the withdrawals below, not a hyphen.
    await expectContains(app.getByTestId('operations-list'), '−40.999')
    await app.getByTestId('history-tab-withdrawals').click()
    await expectContains(app.getByTestId('withdrawals-list'), '−40.999')
    await expectAmountsRight(app, 'withdrawals')
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('the sale preview', () => {
  it('on /sell, /referral/sell and /tasks/sell shows no fee or net for an address that is not valid, and says so', async () => {
    const user = nextUser()
    await makeMember(stack, user)
    await stack.server.admin.credit(user, '50', 'referral_balance')
    // The welcome tokens are not for sale: tokens of the user's own are.
    await stack.server.admin.credit(user, '50')
    const { app, page, errors } = await launch(stack, { user })
    const quotes: string[] = []
    page.on('request', (r) => {
      if (r.url().includes('/api/withdraw/calculate')) quotes.push(r.url())
    })
    const routes: Array<{ route: string; open: () => Promise<void> }> = [
      { route: '/sell', open: async () => (await app.getByTestId('tab-dashboard').click(), await app.getByTestId('link-sell').click()) },
      { route: '/referral/sell', open: async () => (await app.getByTestId('tab-referral').click(), await app.getByTestId('link-referral-sell').click()) },
      { route: '/tasks/sell', open: async () => (await app.getByTestId('tab-tasks').click(), await app.getByTestId('link-tasks-sell').click()) },
    ]
    await app.getByTestId('screen-dashboard').waitFor()
    for (const { route, open } of routes) {
      await open()
      await app.getByTestId('screen-sell').waitFor()
      const asked = quotes.length
      await app.getByTestId('sell-amount').fill('10')
      // Pasted, still in the field: the message shows at once, and no quote is shown or asked for.
      await app.getByTestId('sell-address').fill(BAD_CHECKSUM)
      await expectText(app.getByTestId('sell-address-error'), 'Enter a valid TON address')
      // Time is what is under test here: past the quote's 400 ms debounce, still no quote was asked for.
      await new Promise((r) => setTimeout(r, 1_000))
      expect(await app.getByTestId('sell-preview').count(), route).toBe(0)
      expect(quotes.length, route).toBe(asked)
      expect(await app.getByTestId('sell-submit').isDisabled()).toBe(true)

      await app.getByTestId('sell-address').fill(ADDRESS)
      await expectText(app.getByTestId('sell-fee'), '0.30 AXIOM')
      await expectText(app.getByTestId('sell-net'), '9.70 AXIOM')
      expect(await app.getByTestId('sell-address-error').count()).toBe(0)

      // Spoilt again: the preview goes at once.
      await app.getByTestId('sell-address').fill(`${ADDRESS}0`)
      await expect.poll(() => app.getByTestId('sell-preview').count(), { timeout: 300, message: route }).toBe(0)
      await expectText(app.getByTestId('sell-address-error'), 'Enter a valid TON address')
    }
    expect(errors).toEqual([])
    await page.close()
  })
})
