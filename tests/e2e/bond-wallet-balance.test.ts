import { describe, expect, it } from 'vitest'
import { BOND_FEE_RESERVE, coinFromNano, formatAmount } from '../../core/index.ts'
import { connectDevWallet, expectText, text } from './helpers.ts'
import { launch, useStack } from './stack.ts'

/**
 * The Bond form with a wallet connected: the wallet's coin balance, read from the chain (the local
 * chain's v4 API, as under `npm start`), and a Max that fills the largest amount the balance pays for
 * while keeping the network fee's reserve, said beside it. With no wallet neither shows; when the
 * chain cannot be read the form says so and still quotes and buys.
 */
const stack = useStack({ ton: true })

const ton = () => {
  if (!stack.ton) throw new Error('the stack has no local TON')
  return stack.ton
}

/** An amount as the app prints it ('1 234.5678') read back as a number. */
const amountIn = (s: string): number => Number(s.replace(/[^\d.]/g, ''))

describe('the Bond form: the wallet balance and Max', () => {
  it('no wallet: no balance and no Max; connected: the balance in GRAM, and Max fills what it pays for, less the fee reserve', async () => {
    const user = 9301
    const { page, app, errors } = await launch(stack, { user, name: 'Max' })
    await app.getByTestId('tab-bond').click()
    await app.getByTestId('connect-wallet').waitFor()
    expect(await app.getByTestId('bond-wallet-balance').count()).toBe(0)
    expect(await app.getByTestId('bond-amount-max').count()).toBe(0)

    await connectDevWallet(page, app)
    const nano = await ton().chain.balance(ton().devWallet.keyForUser(user).address)
    expect(nano).toBeGreaterThan(1_000_000_000n)
    const balance = Number(coinFromNano(nano))
    const shown = app.getByTestId('bond-wallet-balance')
    await expect.poll(() => text(shown)).toContain(`In your wallet: ${formatAmount(coinFromNano(nano), 4)} GRAM`)
    await expectText(app.getByTestId('bond-max-note'), `Max keeps ${formatAmount(BOND_FEE_RESERVE)} GRAM for the network fee.`)
    expect(await text(app.getByTestId('bond-amount-available'))).toMatch(/^Up to [\d ]+\.\d{2} AXIOM$/)

    // The "Up to" figure follows the price (a tick every 500 ms here), so it is read in the same
    // task as the click: Max fills what the user saw when pressing it.
    const seen = await app.getByTestId('bond-amount-max').evaluate((max: HTMLElement) => {
      const upTo = document.querySelector('[data-testid="bond-amount-available"]')?.textContent ?? ''
      max.click()
      return upTo
    })
    const filled = Number(await app.getByTestId('bond-amount').inputValue())
    expect(filled).toBe(amountIn(seen))
    // Truncated to 2 places, as every amount the user enters.
    expect(String(filled)).toMatch(/^\d+(\.\d{1,2})?$/)
    // The server's quote for it: what the wallet would pay is within the balance less the reserve, and
    // one cent more of AXIOM would not fit (the price moves every 500 ms here: within 1 %).
    const pay = amountIn(await text(app.getByTestId('bond-preview-ton')))
    const spendable = balance - BOND_FEE_RESERVE
    expect(pay).toBeLessThanOrEqual(spendable * 1.01)
    expect(pay).toBeGreaterThan(spendable * 0.99 - (pay / filled) * 0.01)
    await expect.poll(() => app.getByTestId('buy-bond').isEnabled()).toBe(true)
    expect(errors).toEqual([])
    await page.close()
  })

  it('the chain cannot be read: the form says "Balance unavailable", offers no Max, and still quotes and buys; in Russian too', async () => {
    for (const [user, lang, words] of [
      [9302, 'en', 'Balance unavailable'],
      [9303, 'ru', 'Баланс недоступен'],
    ] as const) {
      const page = await stack.browser.newPage({ viewport: { width: 1100, height: 900 } })
      // The node's v4 API answers nothing but errors (the wallet's bridge, also under /ton, still works).
      await page.route(/\/ton\/block\//, (route) => route.fulfill({ status: 502, body: 'bad gateway' }))
      const { app, errors } = await launch(stack, { user, name: 'Nora', lang, page })
      await connectDevWallet(page, app)
      await expectText(app.getByTestId('bond-wallet-balance'), words)
      expect(await app.getByTestId('bond-amount-max').count()).toBe(0)
      expect(await app.getByTestId('bond-max-note').count()).toBe(0)
      // No error toast for it: the form says it in place.
      expect(await app.getByTestId('toast-error').count()).toBe(0)

      await app.getByTestId('bond-amount').fill('10')
      await app.getByTestId('bond-preview-ton').waitFor()
      await expect.poll(() => app.getByTestId('buy-bond').isEnabled()).toBe(true)
      expect(errors).toEqual([])
      await page.close()
    }
  })
})
