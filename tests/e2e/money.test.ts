import type { FrameLocator } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { amountOf, expectContains, expectText, expectToast, nextUser, text } from './helpers.ts'
import { api, launch, makeMember, useStack } from './stack.ts'

/** Selling, the referral-balance transfer, and the history pages. */
const stack = useStack()

const RAW_ADDRESS = `0:${'ab12'.repeat(16)}`
const mainBalance = async (app: FrameLocator) => amountOf(await text(app.getByTestId('balance-main-amount')))

describe('sell', () => {
  it('validates the address, previews fee and net, and one double-clicked confirm makes one sale', async () => {
    const user = nextUser()
    // The welcome 100 funds bonds but is not for sale; the operator's 20 is the user's own.
    await api(stack, user, 'GET', '/user/me')
    await stack.server.admin.credit(user, '20')
    const { app, page, errors } = await launch(stack, { user })
    // A phone without biometrics: the sale goes as it always did (the check before it: biometrics-secure-storage.test.ts).
    await page.getByTestId('host-biometry').selectOption('unavailable')
    await app.getByTestId('screen-dashboard').waitFor()
    await expect.poll(() => mainBalance(app)).toBe(120)
    await app.getByTestId('link-sell').click()
    await app.getByTestId('screen-sell').waitFor()
    await expectText(app.getByTestId('sell-amount-available'), 'To sell: 20.00 (welcome tokens excluded)')
    await expectText(app.getByTestId('sell-locked'), '100.00 AXIOM of welcome tokens and task rewards can be used for bonds but cannot be sold.')

    await app.getByTestId('sell-amount').fill('10')
    await app.getByTestId('sell-address').fill('not-an-address')
    await app.getByTestId('sell-address').blur()
    await expectText(app.getByTestId('sell-address-error'), 'Enter a valid TON address')
    expect(await app.getByTestId('sell-submit').isDisabled()).toBe(true)
    // Workchain 1 and a short hex part are refused as well.
    await app.getByTestId('sell-address').fill(`1:${'ab12'.repeat(16)}`)
    await expectText(app.getByTestId('sell-address-error'), 'Enter a valid TON address')
    await app.getByTestId('sell-address').fill('0:abcdef')
    expect(await app.getByTestId('sell-submit').isDisabled()).toBe(true)

    await app.getByTestId('sell-address').fill(RAW_ADDRESS)
    await expect.poll(() => app.getByTestId('sell-address-error').count()).toBe(0)
    await app.getByTestId('sell-preview').waitFor()
    await expectText(app.getByTestId('sell-fee'), '0.30 AXIOM')
    await expectText(app.getByTestId('sell-net'), '9.70 AXIOM')
    expect(await app.getByTestId('sell-submit').isEnabled()).toBe(true)

    await app.getByTestId('sell-submit').click()
    const modal = app.getByTestId('sell-modal')
    await modal.waitFor()
    await expectContains(modal, 'Confirm the sale')
    await expectContains(modal, '10.00 AXIOM')
    await app.getByTestId('sell-confirm').dblclick()
    await expectToast(app, 'success', 'Sale created')
    await modal.waitFor({ state: 'detached' })

    const history = await api<{ total: number; items: Array<{ token_amount: string; address: string }> }>(stack, user, 'GET', '/withdraw/history')
    expect(history.total).toBe(1)
    expect(history.items[0]!.token_amount).toBe('10')
    await app.getByTestId('tab-dashboard').click()
    await expect.poll(() => mainBalance(app)).toBe(110)
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('amount input', () => {
  it('cuts decimals typed past two without rounding, and keeps the zeros the user typed', async () => {
    const { app, page } = await launch(stack, { user: nextUser() })
    await app.getByTestId('link-sell').click()
    const input = app.getByTestId('sell-amount')
    await input.fill('1.00')
    await input.pressSequentially('5')
    expect(await input.inputValue()).toBe('1.00')
    await input.fill('2.999')
    expect(await input.inputValue()).toBe('2.99')
    await page.close()
  })
})

describe('transfer', () => {
  it('moves the whole referral balance to the main balance', async () => {
    const user = nextUser()
    await makeMember(stack, user)
    await stack.server.admin.credit(user, '25.5', 'referral_balance')
    const { app, page, errors } = await launch(stack, { user })
    // A phone without biometrics: the transfer goes as it always did (the check before it: biometrics-secure-storage.test.ts).
    await page.getByTestId('host-biometry').selectOption('unavailable')
    await expect.poll(() => mainBalance(app)).toBe(100)
    await app.getByTestId('tab-referral').click()
    await expectText(app.getByTestId('referral-balance-amount'), '25.50')
    await app.getByTestId('open-transfer').click()
    const modal = app.getByTestId('transfer-modal')
    await modal.waitFor()
    await app.getByTestId('transfer-amount-max').click()
    expect(await app.getByTestId('transfer-amount').inputValue()).toBe('25.5')
    await app.getByTestId('transfer-submit').click()
    await expectToast(app, 'success', 'Transferred to the main balance')
    await modal.waitFor({ state: 'detached' })
    await expectText(app.getByTestId('referral-balance-amount'), '0.00')
    expect(await app.getByTestId('open-transfer').isDisabled()).toBe(true)
    await app.getByTestId('tab-dashboard').click()
    await expect.poll(() => mainBalance(app)).toBe(125.5)
    await expectText(app.getByTestId('balance-referral-amount'), '0.00')
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('history', () => {
  it('pages the operations 10 at a time, and lists withdrawals', async () => {
    const user = nextUser()
    await makeMember(stack, user)
    // welcome + 12 credits = 13 operations.
    for (let i = 1; i <= 12; i++) await stack.server.admin.credit(user, String(i))
    await api(stack, user, 'POST', '/withdraw/create', { from_ref_balance: false, token_amount: '5.5', address: RAW_ADDRESS })
    const ops = await api<{ total: number }>(stack, user, 'GET', '/operations/history?page=1&limit=10')
    expect(ops.total).toBe(14)

    const { app, page, errors } = await launch(stack, { user })
    const asked: URLSearchParams[] = []
    page.on('request', (r) => {
      const url = new URL(r.url())
      if (url.pathname === '/api/operations/history') asked.push(url.searchParams)
    })
    await app.getByTestId('link-history').click()
    await app.getByTestId('screen-history').waitFor()
    const list = app.getByTestId('operations-list')
    await list.waitFor()
    await expect.poll(() => list.locator('li').count()).toBe(10)
    await expectText(app.getByTestId('history-page'), 'Page 1 of 2')
    await expectText(app.getByTestId('history-total'), 'Total: 14')
    // Asked for by page and size, 10 a page (spec §7).
    expect(asked.length).toBeGreaterThan(0)
    expect(asked.map((q) => [q.get('page'), q.get('size'), q.has('limit')])).toEqual(asked.map(() => ['1', '10', false]))
    expect(await app.getByTestId('history-prev').isDisabled()).toBe(true)
    // Newest first: the sale is the first row.
    await expectContains(list.locator('li').first(), '−5.50')
    await app.getByTestId('history-next').click()
    await expectText(app.getByTestId('history-page'), 'Page 2 of 2')
    await expect.poll(() => list.locator('li').count()).toBe(4)
    expect(await app.getByTestId('history-next').isDisabled()).toBe(true)
    await app.getByTestId('history-prev').click()
    await expectText(app.getByTestId('history-page'), 'Page 1 of 2')

    await app.getByTestId('history-tab-withdrawals').click()
    const withdrawals = app.getByTestId('withdrawals-list')
    await withdrawals.waitFor()
    await expect.poll(() => withdrawals.locator('li').count()).toBe(1)
    await expectContains(withdrawals, '−5.50')
    await expectContains(withdrawals, 'Pending')
    await expectContains(withdrawals, 'From the main balance')
    expect(errors).toEqual([])
    await page.close()
  })

  it('shows the empty state for a user without withdrawals', async () => {
    const { app, page } = await launch(stack, { user: nextUser(), path: '/history' })
    await app.getByTestId('operations-list').waitFor()
    await app.getByTestId('history-tab-withdrawals').click()
    await expectText(app.getByTestId('history-empty'), 'No withdrawals yet')
    await page.close()
  })
})
