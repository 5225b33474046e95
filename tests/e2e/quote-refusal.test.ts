import type { FrameLocator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { connectDevWallet, errorHaptics, expectText, settled, text, toastTexts, watchRequests } from './helpers.ts'
import { launch, useStack } from './stack.ts'

/**
 * A new user types an amount the backend refuses to quote (its bond range starts at 1 AXIOM): the
 * refusal stands in the summary box where the quote would be, with no error toast and no vibration
 * on each keystroke, and Buy cannot be pressed until an amount is quoted.
 */
const stack = useStack({ ton: true })

describe('a bond amount the backend refuses to quote', () => {
  it('is answered in the summary, not by a toast, and Buy waits for an amount it quotes', async () => {
    const { app, page, errors } = await launch(stack, { user: 9301 })
    const inFlight = watchRequests(page)
    await connectDevWallet(page, app)
    await app.getByTestId('screen-bond').waitFor()
    const hapticsBefore = await errorHaptics(page)

    const amount = app.getByTestId('bond-amount')
    await amount.pressSequentially('0.5', { delay: 60 })
    const refusal = app.getByTestId('bond-preview-error')
    await refusal.waitFor()
    expect(await refusal.getAttribute('role')).toBe('alert')
    await expectText(refusal, 'This cannot be quoted: amount must be at least 1')
    expect(await app.getByTestId('buy-bond').isDisabled()).toBe(true)
    // Settled: a toast sent with the refusal would be on screen by now.
    await settled(app, inFlight)
    expect(await toastTexts(app, 'error')).toEqual([])
    expect(await errorHaptics(page)).toBe(hapticsBefore)

    await amount.fill('10')
    await app.getByTestId('bond-preview-max').waitFor()
    await expectText(app.getByTestId('bond-preview-amount'), '10.00 AXIOM')
    expect(await app.getByTestId('bond-preview-error').count()).toBe(0)
    expect(await app.getByTestId('buy-bond').isDisabled()).toBe(false)
    expect(await toastTexts(app, 'error')).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  })

  it('reads in Russian with the backend words as they are', async () => {
    const { app, page } = await launch(stack, { user: 9302, lang: 'ru', path: '/bond' })
    await app.getByTestId('screen-bond').waitFor()
    await app.getByTestId('bond-amount').fill('2000000')
    const refusal = app.getByTestId('bond-preview-error')
    await refusal.waitFor()
    expect(await text(refusal)).toMatch(/^Расчёт невозможен: amount must be at most 1/)
    expect(await toastTexts(app, 'error')).toEqual([])
    await page.close()
  })
})
