import { describe, expect, it } from 'vitest'
import { launch, useStack } from './stack.ts'

const stack = useStack()

describe('launching the mini app from the Telegram host', () => {
  it('lands on the dashboard with the user’s balances and the live price', async () => {
    const { app, page, errors } = await launch(stack, { user: 7001, name: 'Alice' })
    await app.getByTestId('screen-dashboard').waitFor()
    await expect.poll(() => app.getByTestId('balance-main-amount').innerText()).toMatch(/\d/)
    await expect.poll(() => app.getByTestId('price').innerText()).toMatch(/TON/)
    expect(errors).toEqual([])
    await page.close()
  })
})
