import type { FrameLocator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { DevKey } from '../../stand-ins/chain/dev-keys.ts'
import { AUTO_ANSWER_DELAY_MS } from '../../stand-ins/ton-connect/dev-wallet.ts'
import { signTonProof } from '../../stand-ins/ton-connect/sign-ton-proof.ts'
import { errorHaptics, expectToast, recordToasts, toastsSeen, toastTexts } from './helpers.ts'
import { api, launch, useStack } from './stack.ts'

const stack = useStack({ ton: true })

const ton = () => {
  if (!stack.ton) throw new Error('the stack has no local TON')
  return stack.ton
}

/** Picks the dev wallet in the connect modal of the Bond screen; the wallet's page opens in a new tab and approves. */
const pickDevWallet = async (page: Page, app: FrameLocator) => {
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
}

/** Connects the dev wallet from the Bond screen. */
const connectDevWallet = async (page: Page, app: FrameLocator) => {
  await pickDevWallet(page, app)
  await app.getByTestId('wallet-chip').waitFor()
}

/** The wallet the backend has bound to `user` (the friendly form of /user/me), or null. */
const boundWallet = async (user: number): Promise<string | null> =>
  (await api<{ wallet_address: string | null }>(stack, user, 'GET', '/user/me')).wallet_address


/** Binds `key`'s wallet to `user` through the backend, as that user's app would after a tonProof. */
const bindKeyTo = async (user: number, key: DevKey) => {
  const { payload } = await api<{ payload: string }>(stack, user, 'POST', '/wallet/ton-proof/payload')
  const proof = signTonProof({ address: key.wallet.address, secretKey: key.keyPair.secretKey, domain: '127.0.0.1:5173', payload })
  const addr = ton().devWallet.tonAddr(key)
  await api(stack, user, 'POST', '/wallet/ton-proof/check', {
    address: addr.address,
    network: addr.network,
    public_key: addr.publicKey,
    proof: { ...proof, state_init: addr.walletStateInit },
  })
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

    // The user's own dev wallet answered, and the backend bound it to them.
    const own = ton().devWallet.keyForUser(9101)
    await expect.poll(() => boundWallet(9101)).toBe(own.friendly)
    const wallet = own.address
    const walletBefore = await ton().chain.balance(wallet)
    const treasuryBefore = await ton().chain.balance(ton().treasuryAddress)

    await recordToasts(app)
    await buy(app, '50')
    await app.getByText('New Bond created').waitFor({ timeout: 30_000 })
    // 'Transaction is being processed' is told once the wallet's answer is back and goes when the bond is
    // created; when the chain credits the payment before that answer arrives, it is not told at all. It
    // never comes after 'New Bond created'.
    const seen = await toastsSeen(app)
    expect(seen).toContain('New Bond created')
    expect(seen.slice(seen.indexOf('New Bond created'))).not.toContain('Transaction is being processed')
    expect(await toastTexts(app, 'info')).not.toContain('Transaction is being processed')
    const row = app.locator('[data-testid^="mint-status-"]').first()
    // Its text, drawn or not: a bond below the screen's edge is drawn only as it comes near (content-visibility).
    await expect.poll(() => row.textContent()).toMatch(/active/i)

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

  it('two new users connect the dev wallet in turn: each gets a wallet of their own, bound, and neither sees an error', async () => {
    for (const [user, name] of [
      [9104, 'Nina'],
      [9105, 'Paul'],
    ] as const) {
      const { page, app, errors } = await launch(stack, { user, name })
      const hapticsBefore = await errorHaptics(page)
      await connectDevWallet(page, app)
      await expect.poll(() => boundWallet(user)).toBe(ton().devWallet.keyForUser(user).friendly)
      await app.getByTestId('wallet-chip').waitFor()
      expect(await toastTexts(app, 'error')).toEqual([])
      expect(await errorHaptics(page)).toBe(hapticsBefore)
      expect(errors).toEqual([])
      await page.close()
    }
    expect(await boundWallet(9104)).not.toBe(await boundWallet(9105))
  })

  it("a wallet bound to another account is refused: the app disconnects it, says why, and the bond can't be bought with it", async () => {
    // Ivy's own dev wallet is already bound to Hugo's account.
    const [hugo, ivy] = [9106, 9107]
    await launch(stack, { user: hugo }).then(({ page }) => page.close())
    await bindKeyTo(hugo, ton().devWallet.keyForUser(ivy))

    const { page, app } = await launch(stack, { user: ivy, name: 'Ivy' })
    const hapticsBefore = await errorHaptics(page)
    await pickDevWallet(page, app)
    await expectToast(app, 'error', 'This wallet is linked to another AXIOM account, so it was disconnected. Connect a wallet of your own.')
    await expect.poll(() => errorHaptics(page)).toBeGreaterThan(hapticsBefore)
    await app.getByTestId('connect-wallet').waitFor()
    expect(await app.getByTestId('wallet-chip').count()).toBe(0)
    // No purchase without a wallet: the screen asks to connect one, and the wallet saw no transaction.
    expect(await app.getByTestId('buy-bond').count()).toBe(0)
    expect(ton().devWallet.connectedDapps().filter((c) => c.user === String(ivy))).toEqual([])
    expect(await boundWallet(ivy)).toBeNull()
    expect(await boundWallet(hugo)).toBe(ton().devWallet.keyForUser(ivy).friendly)
    await page.close()
  })

  it('a wallet that approves at once: the user who went to Staking meanwhile stays there when the purchase ends', async () => {
    const { page, app, errors } = await launch(stack, { user: 9108, name: 'Sam' })
    await connectDevWallet(page, app)
    // Every balance read of the purchase's watch (v4 API: /block/<seqno>/<address>/lite), with its time.
    const balanceReads: number[] = []
    page.on('request', (r) => {
      if (/\/ton\/block\/\d+\/[^/]+\/lite$/.test(new URL(r.url()).pathname)) balanceReads.push(Date.now())
    })
    ton().devWallet.autoAnswerDelayMs = 45
    try {
      await recordToasts(app)
      await buy(app, '20')
      // The wallet approved: the purchase says it is processing, or, when the chain's credit reached the
      // app before the wallet's answer, the bond is announced already. The user leaves meanwhile.
      const approved = (seen: string[]) => seen.includes('Transaction is being processed') || seen.includes('New Bond created')
      await expect.poll(async () => approved(await toastsSeen(app)), { interval: 20 }).toBe(true)
      await app.getByTestId('tab-staking').click()
      await app.getByTestId('screen-staking').waitFor()
      await expect.poll(() => toastsSeen(app), { timeout: 30_000 }).toContain('New Bond created')
      expect(await toastTexts(app, 'info')).not.toContain('Transaction is being processed')
      // The purchase is over once the watch stops reading: it saw the payment, well before its 30 tries.
      await expect.poll(() => balanceReads.length > 0 && Date.now() - balanceReads.at(-1)! > 3_000, { timeout: 40_000, interval: 250 }).toBe(true)
      expect(balanceReads.length).toBeLessThan(10)
      expect(await app.getByTestId('screen-staking').isVisible()).toBe(true)
      expect(await app.getByTestId('screen-dashboard').count()).toBe(0)
      expect(errors).toEqual([])
    } finally {
      ton().devWallet.autoAnswerDelayMs = AUTO_ANSWER_DELAY_MS
    }
    await page.close()
  })

  /** The user's only bond's status, from the backend (its toast may come and go while the prompt is up). */
  const bondStatus = async (user: number) => (await api<{ items: Array<{ status: string }> }>(stack, user, 'GET', '/mint/')).items[0]?.status

  it("a user who never started the bot is asked, after paying, to let it write: allowed, the bot's 'payment arrived' reaches them", async () => {
    const user = 9109
    const { page, app, errors } = await launch(stack, { user, name: 'Fern', writeAccess: 'ask' })
    await connectDevWallet(page, app)
    expect(stack.telegram.state.canWriteTo(user)).toBe(false)
    await buy(app, '30')
    // Telegram's own prompt, over the app, once the wallet has sent the payment.
    await page.getByTestId('host-popup').waitFor()
    expect(await page.getByTestId('host-popup').textContent()).toContain('Allow AXIOM to send you messages?')
    await page.getByTestId('host-popup').getByRole('button', { name: 'Allow', exact: true }).click()
    await expect.poll(() => bondStatus(user), { timeout: 30_000 }).toBe('active')
    await expect.poll(() => stack.telegram.state.chatOf(user).map((m) => m.text), { timeout: 15_000 }).toEqual([expect.stringMatching(/^Your payment arrived: bond #1 for 30(\.00)? AXIOM is active\.$/)])
    expect(errors).toEqual([])
    await page.close()
  })

  it('one who declines is not written to, and the bond goes live all the same', async () => {
    const user = 9110
    const { page, app, errors } = await launch(stack, { user, name: 'Gus', writeAccess: 'ask' })
    await connectDevWallet(page, app)
    await buy(app, '25')
    await page.getByTestId('host-popup').waitFor()
    await page.getByTestId('host-popup').getByRole('button', { name: "Don't allow" }).click()
    await expect.poll(() => bondStatus(user), { timeout: 30_000 }).toBe('active')
    // The backend tried: Telegram answered that the bot may not write to them (it tries a few more
    // times in the next minute, in case they change their mind), and they are not taken as blocking it.
    const tried = async () =>
      (await stack.server.ctx.db.one("SELECT o.last_error FROM outbox o JOIN users u ON u.id = o.user_id WHERE u.telegram_id = ? AND o.kind = 'bond_paid'", user))?.last_error
    await expect.poll(tried, { timeout: 15_000 }).toBe("403 Forbidden: bot can't initiate conversation with a user")
    expect((await stack.server.ctx.db.one('SELECT bot_blocked_at FROM users WHERE telegram_id = ?', user))!.bot_blocked_at).toBeNull()
    expect(stack.telegram.state.chatOf(user)).toEqual([])
    expect(errors).toEqual([])
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
