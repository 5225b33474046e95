import type { FrameLocator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { REFUND_FEE_NANO } from '../../server/chain/payment-rows.ts'
import { commentCell } from '../../stand-ins/chain/local-chain.ts'
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
    await expect.poll(() => app.locator('[data-testid^="mint-status-"]').first().textContent()).toMatch(/active/i)

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

describe('History after a bond payment is refunded', () => {
  it('a second payment for a bond already paid comes back, less the network fee: a row of its own, in GRAM, into the wallet, in English and in Russian', async () => {
    const user = nextUser()
    const { page, app, errors } = await launch(stack, { user })
    await connectDevWallet(page, app)
    await buy(app, '40')
    await app.getByText('New Bond created').waitFor({ timeout: 30_000 })
    await expect.poll(() => app.locator('[data-testid^="mint-status-"]').first().textContent()).toMatch(/active/i)
    const [bond] = (await api<{ items: Array<{ id: number; amount_ton: string }> }>(stack, user, 'GET', '/mint/')).items

    // The same wallet pays the same bond again, as a wallet app that sent twice would: the watcher refunds it.
    const ton = stack.ton!
    const paid = BigInt(Math.round(Number(bond!.amount_ton) * 1e9))
    await ton.chain.transfer(ton.devWallet.keyForUser(user), [{ to: ton.treasuryAddress, value: paid, body: commentCell(`axiom:mint:${bond!.id}`), bounce: true }])
    const history = () => api<{ items: Op[] }>(stack, user, 'GET', '/operations/history')
    await expect.poll(async () => (await history()).items.some((o) => o.type === 'bond_refund'), { timeout: 20_000 }).toBe(true)
    const refund = (await history()).items.find((o) => o.type === 'bond_refund')!
    const back = paid - REFUND_FEE_NANO
    const wire = `${back / 1_000_000_000n}.${String(back % 1_000_000_000n).padStart(9, '0')}`.replace(/\.?0+$/, '')
    expect(refund).toMatchObject({ amount: wire, unit: 'GRAM' })

    await openHistory(app)
    const row = app.getByTestId(`operation-${refund.id}`)
    await expectText(row.locator('.list__title'), 'Refund of bond #1 payment')
    // Coin coming back to the wallet: a plus, the amount as every screen cuts it, its unit.
    await expectText(app.getByTestId(`operation-${refund.id}-amount`), `+${shownAmount(wire, 4)} GRAM`)
    expect(await app.getByTestId(`operation-${refund.id}-amount`).getAttribute('class')).toContain('is-positive')
    expect(await app.getByTestId('operations-list').locator('li').first().getAttribute('data-testid')).toBe(`operation-${refund.id}`)
    expect(errors).toEqual([])

    const ru = await launch(stack, { user, lang: 'ru', page, path: '/history' })
    await ru.app.getByTestId('operations-list').waitFor()
    await expectText(ru.app.getByTestId(`operation-${refund.id}`).locator('.list__title'), 'Возврат оплаты бонда #1')
    expect(await text(ru.app.getByTestId(`operation-${refund.id}-amount`))).toMatch(/^\+[\d ]+\.\d{2,4} GRAM$/)
    expect(ru.errors).toEqual([])
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
