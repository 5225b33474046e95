import type { FrameLocator } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { expectToast, frameEval } from './helpers.ts'
import { launch, useStack } from './stack.ts'

/**
 * A sale's payout reaches the user as the chain's stream sees it: on a clocked local chain whose
 * watcher listens to the Streaming API (as live with AXIOM_TON_STREAM), the sale just made reads
 * "Sent" once the payouts' message from the treasury is accepted (the stream's pending trace), then
 * "Paid" once its block is read from the treasury's history; the history's row says the same. The
 * block is made by the test once "Sent" is on screen (the clock is ten minutes), so the order does
 * not hang on the clock's phase; npm run bench:confirm measures a sale's time at 400 ms.
 */
const stack = useStack({ ton: true, tonOptions: { blockIntervalMs: 600_000, stream: true, watchIntervalMs: 5_000 } })

/** Keeps, in order, each text the sale just made shows for its payout, however briefly it stays. */
const recordPayoutTexts = (app: FrameLocator) =>
  frameEval(app, () => {
    const w = window as unknown as { __payout?: string[] }
    if (w.__payout) return
    const seen: string[] = (w.__payout = [])
    const look = () => {
      const text = document.querySelector('[data-testid="sell-last-sale-status"]')?.textContent?.trim()
      if (text && seen.at(-1) !== text) seen.push(text)
    }
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true })
    look()
  })

const payoutTexts = (app: FrameLocator): Promise<string[]> => frameEval(app, () => [...((window as unknown as { __payout?: string[] }).__payout ?? [])])

describe("a sale's payout seen on the chain", () => {
  it('after a sale, the app shows "Sent" as the treasury sends, then "Paid" once confirmed, there and in the history', async () => {
    const user = 9401
    const { page, app, errors } = await launch(stack, { user, name: 'Sergei' })
    // Tokens of the user's own (the welcome ones are not for sale); a phone without biometrics.
    await stack.server.admin.credit(user, '20')
    await page.getByTestId('host-biometry').selectOption('unavailable')
    await app.getByTestId('screen-dashboard').waitFor()
    await app.getByTestId('link-sell').click()
    await app.getByTestId('screen-sell').waitFor()
    await recordPayoutTexts(app)
    const to = stack.ton!.chain.devWallet(1)
    const before = await stack.ton!.chain.balance(to.address)
    await app.getByTestId('sell-amount').fill('10')
    await app.getByTestId('sell-address').fill(to.friendly)
    await app.getByTestId('sell-preview').waitFor()
    await app.getByTestId('sell-submit').click()
    await app.getByTestId('sell-modal').waitFor()
    await app.getByTestId('sell-confirm').click()
    await expectToast(app, 'success', 'Sale created')

    // The payouts' pass sends the treasury's message; the block waits for the test.
    await expect.poll(() => payoutTexts(app), { timeout: 30_000 }).toEqual(expect.arrayContaining(['Sent']))
    expect(await stack.ton!.chain.balance(to.address)).toBe(before)
    await stack.ton!.chain.sealNow()
    await expect.poll(() => payoutTexts(app), { timeout: 30_000 }).toEqual(expect.arrayContaining(['Sent', 'Paid']))
    const shown = await payoutTexts(app)
    expect(shown.indexOf('Sent')).toBeLessThan(shown.indexOf('Paid'))
    expect(shown.at(-1)).toBe('Paid')
    expect(await stack.ton!.chain.balance(to.address)).toBeGreaterThan(before)

    // The history of sales says it too.
    await app.getByTestId('tab-dashboard').click()
    await app.getByTestId('link-history').click()
    await app.getByTestId('history-tab-withdrawals').click()
    await expect.poll(() => app.locator('[data-testid$="-status"][data-testid^="withdrawal-"]').first().innerText()).toBe('Paid')
    expect(errors).toEqual([])
    await page.close()
  })
})
