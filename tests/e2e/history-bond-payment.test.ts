import type { FrameLocator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { connectDevWallet, expectText, nextUser, shownAmount, text } from './helpers.ts'
import { api, launch, useStack } from './stack.ts'

/**
 * History after a bond paid in TON through the dev wallet and the local chain: the purchase is a row
 * of its own, with the TON it cost, next to the welcome balance (a TON payment moves no token
 * balance, so before it had no row at all).
 */
const stack = useStack({ ton: true })

const buy = async (app: FrameLocator, amount: string) => {
  await app.getByTestId('tab-bond').click()
  await app.getByTestId('bond-amount').fill(amount)
  await app.getByTestId('bond-preview').waitFor()
  await app.getByTestId('buy-bond').click()
}

const openHistory = async (app: FrameLocator) => {
  await app.getByTestId('tab-dashboard').click()
  await app.getByTestId('link-history').click()
  await app.getByTestId('screen-history').waitFor()
  await app.getByTestId('operations-list').waitFor()
}

type Op = { id: number; type: string; amount: string; unit: string }

describe('History after paying for a bond', () => {
  it('shows the bond bought and the TON it cost, in English and in Russian', async () => {
    const user = nextUser()
    const { page, app, errors } = await launch(stack, { user })
    await connectDevWallet(page, app)
    await buy(app, '50')
    await app.getByText('New Bond created').waitFor({ timeout: 30_000 })
    await expect.poll(() => app.locator('[data-testid^="mint-status-"]').first().innerText()).toMatch(/active/i)

    const [bond] = (await api<{ items: Array<{ id: number; amount_ton: string }> }>(stack, user, 'GET', '/mint/')).items
    const ops = (await api<{ items: Op[] }>(stack, user, 'GET', '/operations/history')).items
    const paid = ops.find((o) => o.type === 'bond_paid')!
    expect(paid).toMatchObject({ amount: `-${bond!.amount_ton}`, unit: 'GRAM' })
    const welcome = ops.find((o) => o.type === 'welcome')!

    await openHistory(app)
    const row = app.getByTestId(`operation-${paid.id}`)
    await expectText(row.locator('.list__title'), 'Bond #1 bought')
    // The TON it cost, spent: the typographic minus, the amount as every screen cuts it, its unit.
    await expectText(app.getByTestId(`operation-${paid.id}-amount`), `−${shownAmount(bond!.amount_ton, 4)} GRAM`)
    expect(await app.getByTestId(`operation-${paid.id}-amount`).getAttribute('class')).toContain('is-negative')
    await expectText(app.getByTestId(`operation-${welcome.id}-amount`), '+100.00 AXIOM')
    // Newest first: the purchase above the welcome balance.
    const rows = app.getByTestId('operations-list').locator('li')
    expect(await rows.first().getAttribute('data-testid')).toBe(`operation-${paid.id}`)
    expect(errors).toEqual([])

    await russian(page, user, paid.id)
    await page.close()
  })
})

/** The same row for a Russian-speaking user. */
const russian = async (page: Page, user: number, id: number) => {
  const { app, errors } = await launch(stack, { user, lang: 'ru', page, path: '/history' })
  await app.getByTestId('operations-list').waitFor()
  await expectText(app.getByTestId(`operation-${id}`).locator('.list__title'), 'Куплен бонд #1')
  expect(await text(app.getByTestId(`operation-${id}-amount`))).toMatch(/ GRAM$/)
  expect(errors).toEqual([])
}
