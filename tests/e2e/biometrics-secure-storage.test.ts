import type { FrameLocator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { amountOf, expectText, expectToast, nextUser, recordToasts, text, toastsSeen, telegramStorage, type HostEvent, hostEvents } from './helpers.ts'
import { api, launch, makeMember, useStack } from './stack.ts'
import { launchAgain } from '../support/host-launch.ts'

/**
 * Telegram's BiometricManager before money leaves, and SecureStorage for the refresh token, through
 * the host emulator: an old client (6.0, 7.0) goes as before, a 9.1 client asks the device.
 */
const stack = useStack()

const RAW_ADDRESS = `0:${'ab12'.repeat(16)}`
const ACCESS_REASON = 'Confirm sales and transfers with Face ID / fingerprint'

/** The biometric methods the app posted to the client. */
const biometryCalls = async (page: Page): Promise<HostEvent[]> => (await hostEvents(page)).filter((e) => e.dir === 'in' && e.type.startsWith('web_app_biometry_'))

const withdrawals = async (user: number) => (await api<{ total: number }>(stack, user, 'GET', '/withdraw/history')).total

/** A member with 20 AXIOM of their own to sell, on the Sell screen with 10 to a valid address typed and confirmed. */
const saleTyped = async (version: string) => {
  const user = nextUser()
  await api(stack, user, 'GET', '/user/me')
  await stack.server.admin.credit(user, '20')
  const launched = await launch(stack, { user, version })
  const { app } = launched
  await app.getByTestId('screen-dashboard').waitFor()
  await expect.poll(async () => amountOf(await text(app.getByTestId('balance-main-amount')))).toBe(120)
  await app.getByTestId('link-sell').click()
  await app.getByTestId('screen-sell').waitFor()
  await app.getByTestId('sell-amount').fill('10')
  await app.getByTestId('sell-address').fill(RAW_ADDRESS)
  await app.getByTestId('sell-preview').waitFor()
  await app.getByTestId('sell-submit').click()
  await app.getByTestId('sell-modal').waitFor()
  return { user, ...launched }
}

/** The key the app keeps the refresh token under in Telegram's SecureStorage. */
const SECURE_KEY = 'axiom_refresh_token'

const secureStorage = (app: FrameLocator, key: string): Promise<string | null> => telegramStorage(app, 'secure', key)

/** What the app keeps there: the token and the Telegram user it was issued to. */
const keptToken = async (app: FrameLocator): Promise<{ user: string; token: string } | null> => {
  const value = await secureStorage(app, SECURE_KEY)
  return value === null ? null : (JSON.parse(value) as { user: string; token: string })
}

const appCookies = (app: FrameLocator): Promise<string> => app.locator('html').evaluate(() => document.cookie)

/** The sign-in requests the app makes from now on: which, and the refresh token or the user id they carry. */
const watchSignIns = (page: Page) => {
  const seen: Array<{ path: 'register' | 'refresh'; refresh?: string; user?: string }> = []
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname
    if (r.method() !== 'POST' || (path !== '/api/auth/register' && path !== '/api/auth/refresh')) return
    const body = JSON.parse(r.postData() ?? '{}') as { refresh?: string; init_data?: string }
    if (path === '/api/auth/refresh') seen.push({ path: 'refresh', refresh: body.refresh ?? '' })
    else seen.push({ path: 'register', user: String((JSON.parse(new URLSearchParams(body.init_data ?? '').get('user') ?? '{}') as { id?: number }).id) })
  })
  return seen
}

/** Launches the app again from the emulator's form, as the same or another user, keeping the emulator's device state. */
const relaunchFromForm = async (page: Page, app: FrameLocator, user: number, version: string) => {
  await page.getByTestId('host-user-id').fill(String(user))
  await page.getByTestId('host-version').fill(version)
  await launchAgain(page)
  await app.getByTestId('screen-dashboard').waitFor()
}

/** Telegram's access prompt in the emulator: its text, then the user's answer. */
const answerAccessPrompt = async (page: Page, answer: 'Allow' | "Don't allow") => {
  const popup = page.getByTestId('host-popup')
  await popup.waitFor()
  await expectText(page.locator('#popup-message'), ACCESS_REASON)
  await popup.getByRole('button', { name: answer, exact: true }).click()
}

describe('biometrics before a sale or a transfer', () => {
  for (const version of ['6.0', '7.0'])
    it(`a ${version} client: the sale goes at once, no biometric prompt`, async () => {
      const { user, app, page, errors } = await saleTyped(version)
      await app.getByTestId('sell-confirm').dblclick()
      await expectToast(app, 'success', 'Sale created')
      expect(await withdrawals(user)).toBe(1)
      expect(await biometryCalls(page)).toEqual([])
      expect(await page.getByTestId('host-popup').isVisible()).toBe(false)
      expect(errors).toEqual([])
      await page.close()
    })

  it('a 9.1 client: access asked once with its reason, the check passes, the sale is sent once', async () => {
    const { user, app, page, errors } = await saleTyped('9.1')
    await app.getByTestId('sell-confirm').dblclick()
    await answerAccessPrompt(page, 'Allow')
    await expectToast(app, 'success', 'Sale created')
    expect(await withdrawals(user)).toBe(1)
    const auth = (await biometryCalls(page)).filter((e) => e.type === 'web_app_biometry_request_auth')
    expect(auth).toEqual([{ dir: 'in', type: 'web_app_biometry_request_auth', data: { reason: 'Confirm the sale of 10.00 AXIOM' } }])
    await expectText(page.getByTestId('host-biometry-access'), 'granted')

    // A second sale: the check again, no access prompt.
    await app.getByTestId('sell-amount').fill('5')
    await app.getByTestId('sell-address').fill(RAW_ADDRESS)
    await app.getByTestId('sell-preview').waitFor()
    await app.getByTestId('sell-submit').click()
    await app.getByTestId('sell-confirm').click()
    await expect.poll(() => withdrawals(user)).toBe(2)
    const calls = await biometryCalls(page)
    expect(calls.filter((e) => e.type === 'web_app_biometry_request_access')).toHaveLength(1)
    expect(calls.filter((e) => e.type === 'web_app_biometry_request_auth')).toHaveLength(2)
    expect(errors).toEqual([])
    await page.close()
  })

  it('a 9.1 client whose check fails: nothing is sent, the sheet says why, the form keeps what was typed', async () => {
    const { user, app, page, errors } = await saleTyped('9.1')
    await page.getByTestId('host-biometry').selectOption('fail')
    await recordToasts(app)
    await app.getByTestId('sell-confirm').click()
    await answerAccessPrompt(page, 'Allow')
    await expectText(app.getByTestId('money-check-refused'), 'Face ID / fingerprint did not confirm the sale, so nothing was sent. Try again when you are ready.')
    expect(await app.getByTestId('sell-modal').isVisible()).toBe(true)
    expect(await app.getByTestId('sell-confirm').isEnabled()).toBe(true)
    expect(await withdrawals(user)).toBe(0)
    expect(await toastsSeen(app)).toEqual([])

    await app.getByTestId('sell-cancel').click()
    await app.getByTestId('sell-modal').waitFor({ state: 'detached' })
    expect(await app.getByTestId('sell-amount').inputValue()).toBe('10')
    expect(await app.getByTestId('sell-address').inputValue()).toBe(RAW_ADDRESS)

    // The device passes the next time: the sale goes.
    await page.getByTestId('host-biometry').selectOption('succeed')
    await app.getByTestId('sell-submit').click()
    expect(await app.getByTestId('money-check-refused').count()).toBe(0)
    await app.getByTestId('sell-confirm').click()
    await expectToast(app, 'success', 'Sale created')
    expect(await withdrawals(user)).toBe(1)
    expect(errors).toEqual([])
    await page.close()
  })

  it('a 9.1 client: a referral transfer whose check fails moves nothing; a user who declines access transfers as before', async () => {
    const user = nextUser()
    await makeMember(stack, user)
    await stack.server.admin.credit(user, '25.5', 'referral_balance')
    const { app, page, errors } = await launch(stack, { user, version: '9.1' })
    const referralBalance = async () => (await api<{ referral_balance: string }>(stack, user, 'GET', '/user/me')).referral_balance
    await app.getByTestId('tab-referral').click()
    await expectText(app.getByTestId('referral-balance-amount'), '25.50')
    await app.getByTestId('open-transfer').click()
    await app.getByTestId('transfer-modal').waitFor()
    await app.getByTestId('transfer-amount').fill('5')

    await page.getByTestId('host-biometry').selectOption('fail')
    await app.getByTestId('transfer-submit').click()
    await answerAccessPrompt(page, 'Allow')
    await expectText(app.getByTestId('money-check-refused'), 'Face ID / fingerprint did not confirm the transfer, so nothing was moved. Try again when you are ready.')
    expect(await app.getByTestId('transfer-amount').inputValue()).toBe('5')
    expect(Number(await referralBalance())).toBe(25.5)

    await page.getByTestId('host-biometry').selectOption('succeed')
    await app.getByTestId('transfer-submit').click()
    await expectToast(app, 'success', 'Transferred to the main balance')
    expect(Number(await referralBalance())).toBe(20.5)
    expect(errors).toEqual([])
    await page.close()

    // Another user declines Telegram's prompt: the transfer goes without biometrics, and they are not asked again.
    const other = nextUser()
    await makeMember(stack, other)
    await stack.server.admin.credit(other, '10', 'referral_balance')
    const second = await launch(stack, { user: other, version: '9.1' })
    await second.app.getByTestId('tab-referral').click()
    await second.app.getByTestId('open-transfer').click()
    await second.app.getByTestId('transfer-amount').fill('4')
    await second.app.getByTestId('transfer-submit').click()
    await answerAccessPrompt(second.page, "Don't allow")
    await expectToast(second.app, 'success', 'Transferred to the main balance')
    await second.app.getByTestId('open-transfer').click()
    await second.app.getByTestId('transfer-amount').fill('3')
    await second.app.getByTestId('transfer-submit').click()
    await expect.poll(async () => Number((await api<{ referral_balance: string }>(stack, other, 'GET', '/user/me')).referral_balance)).toBe(3)
    const calls = await biometryCalls(second.page)
    expect(calls.filter((e) => e.type === 'web_app_biometry_request_access')).toHaveLength(1)
    expect(calls.filter((e) => e.type === 'web_app_biometry_request_auth')).toEqual([])
    expect(second.errors).toEqual([])
    await second.page.close()
  })
})

describe('the refresh token in SecureStorage', () => {
  it('a 9.1 client keeps it in SecureStorage, not in a cookie, and signs in with it when the auth_token is gone', async () => {
    const user = nextUser()
    const { app, page, errors } = await launch(stack, { user, version: '9.1' })
    await app.getByTestId('screen-dashboard').waitFor()
    await expect.poll(() => keptToken(app)).toMatchObject({ user: String(user) })
    const kept = (await keptToken(app))!
    const cookies = await appCookies(app)
    expect(cookies).toContain('auth_token=')
    expect(cookies).not.toContain('refresh_token')
    expect(cookies).not.toContain(encodeURIComponent(kept.token))

    // The next open, a day later: no auth_token cookie; the app refreshes with the token from SecureStorage.
    await app.locator('html').evaluate(() => (document.cookie = 'auth_token=; Max-Age=0; Path=/'))
    const signIns = watchSignIns(page)
    await relaunchFromForm(page, app, user, '9.1')
    await expect.poll(async () => amountOf(await app.getByTestId('balance-main-amount').innerText())).toBe(100)
    expect(signIns).toEqual([{ path: 'refresh', refresh: kept.token }])
    await expect.poll(async () => (await keptToken(app))?.token).not.toBe(kept.token)
    expect(await appCookies(app)).not.toContain('refresh_token')
    expect(errors).toEqual([])
    await page.close()
  })

  it('a 7.0 client keeps the spec’s cookies and never asks SecureStorage; on 9.1 the cookie moves to SecureStorage once', async () => {
    const user = nextUser()
    const { app, page, errors } = await launch(stack, { user, version: '7.0' })
    await app.getByTestId('screen-dashboard').waitFor()
    await expect.poll(() => appCookies(app)).toContain('refresh_token=')
    const cookie = decodeURIComponent(/refresh_token=([^;]*)/.exec(await appCookies(app))![1]!)
    expect((await hostEvents(page)).filter((e) => e.type.includes('secure_storage'))).toEqual([])

    // The same phone's Telegram, updated to 9.1.
    await relaunchFromForm(page, app, user, '9.1')
    await expect.poll(() => keptToken(app)).toEqual({ user: String(user), token: cookie })
    await expect.poll(() => appCookies(app)).not.toContain('refresh_token')
    const saves = (await hostEvents(page)).filter((e) => e.dir === 'in' && e.type === 'web_app_secure_storage_save_key')
    expect(saves).toHaveLength(1)

    // Opened again: read from SecureStorage, not moved again.
    await relaunchFromForm(page, app, user, '9.1')
    await expect.poll(() => appCookies(app)).toContain('auth_token=')
    expect(await keptToken(app)).toEqual({ user: String(user), token: cookie })
    expect((await hostEvents(page)).filter((e) => e.dir === 'in' && e.type === 'web_app_secure_storage_save_key')).toHaveLength(1)
    expect(errors).toEqual([])
    await page.close()
  })

  it('a second user on the same device does not get the first one’s session: the switch clears both places', async () => {
    const first = nextUser()
    const second = nextUser()
    await makeMember(stack, second)
    const { app, page, errors } = await launch(stack, { user: first, version: '9.1' })
    await app.getByTestId('screen-dashboard').waitFor()
    await expect.poll(() => keptToken(app)).toMatchObject({ user: String(first) })
    const firstToken = (await keptToken(app))!.token

    // Another Telegram account on the same phone opens the app: the first one's session is wiped, the second registers.
    const signIns = watchSignIns(page)
    await relaunchFromForm(page, app, second, '9.1')
    await expect.poll(() => signIns).toEqual([{ path: 'register', user: String(second) }])
    await expect.poll(() => keptToken(app)).toMatchObject({ user: String(second) })
    expect((await keptToken(app))!.token).not.toBe(firstToken)
    expect(await appCookies(app)).not.toContain('refresh_token')

    // The first account again: the switch back wipes the second's session, and the first one's token
    // in SecureStorage went with the first switch (the first account signs in afresh, it does not refresh with it).
    signIns.length = 0
    await relaunchFromForm(page, app, first, '9.1')
    await expect.poll(() => signIns).toEqual([{ path: 'register', user: String(first) }])
    await expect.poll(() => keptToken(app)).toMatchObject({ user: String(first) })
    expect((await keptToken(app))!.token).not.toBe(firstToken)
    expect(errors).toEqual([])
    await page.close()
  })
})
