import type { FrameLocator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { launch, useStack } from './stack.ts'

const stack = useStack({ ton: true })

const ton = () => {
  if (!stack.ton) throw new Error('the stack has no local TON')
  return stack.ton
}

/** Connects the dev wallet from the Bond screen; the wallet's page opens in a new tab and approves. */
const connectDevWallet = async (page: Page, app: FrameLocator) => {
  await app.getByTestId('tab-bond').click()
  await app.getByTestId('connect-wallet').click()
  const walletTab = page.context().waitForEvent('page')
  await app.getByText('AXIOM Dev Wallet').or(app.getByText('AXIOM De')).first().click()
  const tab = await walletTab
  // The wallet's universal link carries the connect request (TON Connect's `r`): the app asks for an
  // address on the network it pins, the one the dev wallet claims.
  const request = JSON.parse(new URL(tab.url()).searchParams.get('r') ?? '{}') as { items?: Array<{ name: string; network?: string }> }
  expect(request.items?.find((i) => i.name === 'ton_addr')).toEqual({ name: 'ton_addr', network: ton().devWallet.network })
  await tab.waitForLoadState()
  await tab.close()
  await app.getByTestId('wallet-chip').waitFor()
}

const buy = async (app: FrameLocator, amount: string) => {
  await app.getByTestId('tab-bond').click()
  await app.getByTestId('bond-amount').fill(amount)
  await app.getByTestId('bond-preview').waitFor()
  await app.getByTestId('buy-bond').click()
}

describe('the wallet and the bond purchase, end to end on the local chain', () => {
  it('connects the dev wallet, buys a bond and sees it go live, with the TON moved on the chain, and no request leaves the machine', async () => {
    const { page, app, errors } = await launch(stack, { user: 9101, name: 'Wendy' })
    const outside: string[] = []
    page.context().on('request', (r) => {
      const { protocol, hostname } = new URL(r.url())
      if ((protocol === 'http:' || protocol === 'https:' || protocol === 'ws:' || protocol === 'wss:') && hostname !== '127.0.0.1' && hostname !== 'localhost')
        outside.push(r.url())
    })
    await connectDevWallet(page, app)
    expect(await app.getByTestId('wallet-chip').innerText()).toMatch(/^UQ.{2}…/)

    const wallet = ton().devWallet.key.address
    const walletBefore = await ton().chain.balance(wallet)
    const treasuryBefore = await ton().chain.balance(ton().treasuryAddress)

    await buy(app, '50')
    await app.getByText('Transaction is being processed').waitFor()
    await app.getByText('New Bond created').waitFor({ timeout: 30_000 })
    const row = app.locator('[data-testid^="mint-status-"]').first()
    await expect.poll(() => row.innerText()).toMatch(/active/i)

    const walletAfter = await ton().chain.balance(wallet)
    const treasuryAfter = await ton().chain.balance(ton().treasuryAddress)
    expect(walletAfter).toBeLessThan(walletBefore)
    expect(treasuryAfter).toBeGreaterThan(treasuryBefore)
    expect(errors).toEqual([])
    expect(outside).toEqual([])
    await page.close()
  })

  it('a purchase refused in the wallet says so and leaves no pending bond', async () => {
    const { page, app } = await launch(stack, { user: 9102, name: 'Rita' })
    await connectDevWallet(page, app)
    ton().devWallet.auto = 'reject'
    try {
      await buy(app, '20')
      await app.getByText('Transaction was not sent').waitFor({ timeout: 20_000 })
      await app.getByTestId('tab-dashboard').click()
      await app.getByTestId('mints-empty').waitFor()
    } finally {
      ton().devWallet.auto = 'approve'
    }
    await page.close()
  })

  it('restores the connection after a reload, and disconnects', async () => {
    const { page, app } = await launch(stack, { user: 9103, name: 'Otto' })
    await connectDevWallet(page, app)

    await page.reload()
    await app.getByTestId('tab-bond').click()
    await app.getByTestId('wallet-chip').waitFor({ timeout: 20_000 })

    await app.getByTestId('wallet-chip').click()
    await app.getByTestId('disconnect-confirm').click()
    await app.getByTestId('connect-wallet').waitFor()
    await page.close()
  })
})
