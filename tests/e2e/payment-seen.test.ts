import type { FrameLocator } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { connectDevWallet, frameEval } from './helpers.ts'
import { launch, useStack } from './stack.ts'

/**
 * The chain's speed reaches the user: on a clocked local chain whose watcher listens to the Streaming
 * API (as live with AXIOM_TON_STREAM), the bond's payment is "Payment seen" as soon as the wallet's
 * message is accepted (the stream's pending trace), and "New Bond created" once its block is read
 * from the history. The block is made by the test once "Payment seen" is on screen (the clock is ten
 * minutes), so the order does not hang on the clock's phase; npm run bench:confirm measures the times
 * at 400 ms.
 */
const stack = useStack({ ton: true, tonOptions: { blockIntervalMs: 600_000, stream: true, watchIntervalMs: 5_000 } })

/** Keeps, in order, when "Payment seen" and the toast "New Bond created" first show, wherever they do. */
const recordMilestones = (app: FrameLocator) =>
  frameEval(app, () => {
    const w = window as unknown as { __milestones?: string[] }
    if (w.__milestones) return
    const seen: string[] = (w.__milestones = [])
    const look = () => {
      if (!seen.includes('Payment seen') && document.querySelector('[data-testid^="mint-payment-seen-"]')?.textContent?.includes('Payment seen')) seen.push('Payment seen')
      if (!seen.includes('New Bond created') && [...document.querySelectorAll('.toast__text')].some((t) => t.textContent?.trim() === 'New Bond created')) seen.push('New Bond created')
    }
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true })
    look()
  })

const milestones = (app: FrameLocator): Promise<string[]> => frameEval(app, () => [...((window as unknown as { __milestones?: string[] }).__milestones ?? [])])

describe('a payment seen on the chain before its bond is credited', () => {
  it('after the wallet sends, the bond shows "Payment seen", then "New Bond created" and active', async () => {
    const { page, app, errors } = await launch(stack, { user: 9301, name: 'Petra' })
    await connectDevWallet(page, app)
    await recordMilestones(app)
    await app.getByTestId('tab-bond').click()
    await app.getByTestId('bond-amount').fill('40')
    await app.getByTestId('bond-preview').waitFor()
    await app.getByTestId('buy-bond').click()
    // The Bond screen waits for the purchase; the user goes to their bonds on the dashboard meanwhile.
    await app.getByTestId('tab-dashboard').click()
    await app.locator('[data-testid^="mint-row-"]').first().waitFor()
    // The block waits for the test: "Payment seen" comes from the accepted message alone.
    await expect.poll(() => milestones(app), { timeout: 30_000 }).toEqual(['Payment seen'])
    await stack.ton!.chain.sealNow()
    await expect.poll(() => milestones(app), { timeout: 30_000 }).toEqual(['Payment seen', 'New Bond created'])
    const row = app.locator('[data-testid^="mint-status-"]').first()
    // Its text, drawn or not: a bond below the screen's edge is drawn only as it comes near (content-visibility).
    await expect.poll(() => row.textContent()).toMatch(/active/i)
    // Credited: the pending state is gone with the pending bond.
    expect(await app.locator('[data-testid^="mint-payment-seen-"]').count()).toBe(0)
    expect(errors).toEqual([])
    await page.close()
  })
})
