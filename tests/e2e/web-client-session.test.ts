import type { FrameLocator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { amountOf, frameEval, nextUser, type HostEvent, hostEvents } from './helpers.ts'
import { makeMember, useStack } from './stack.ts'

/**
 * Telegram's web client (web.telegram.org/a, `tgWebAppPlatform=weba`) on a 9.x version has
 * SecureStorage in its API table, but no Keychain or Keystore behind it: the refresh token stays in
 * the spec's cookies there (refresh_token beside auth_token), SecureStorage is never asked, and the
 * next open signs in from the cookies.
 */
const stack = useStack()

/** Every SecureStorage message either way (the app's requests and the client's answers). */
const secureStorageTraffic = async (page: Page): Promise<HostEvent[]> => (await hostEvents(page)).filter((e) => e.type.includes('secure_storage'))

const appCookies = (app: FrameLocator): Promise<string> => frameEval(app, () => document.cookie)
const cookie = async (app: FrameLocator, name: string): Promise<string | null> => {
  const m = new RegExp(`(?:^|; )${name}=([^;]*)`).exec(await appCookies(app))
  return m ? decodeURIComponent(m[1]!) : null
}

/** The sign-in requests the app makes from now on: which, and the refresh token they carry. */
const watchSignIns = (page: Page) => {
  const seen: Array<{ path: 'register' | 'refresh'; refresh?: string }> = []
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname
    if (r.method() !== 'POST') return
    if (path === '/api/auth/refresh') seen.push({ path: 'refresh', refresh: (JSON.parse(r.postData() ?? '{}') as { refresh?: string }).refresh ?? '' })
    if (path === '/api/auth/register') seen.push({ path: 'register' })
  })
  return seen
}

/** Opens the emulator as Telegram's web client A at `version`, which launches the app for `user`. */
const openOnWeb = async (page: Page, user: number, version: string): Promise<FrameLocator> => {
  const q = new URLSearchParams({ user: String(user), lang: 'en', version, platform: 'weba' })
  await page.goto(`${stack.host.url}?${q}`)
  const app = page.frameLocator('iframe')
  await app.getByTestId('screen-dashboard').waitFor()
  await expect.poll(async () => amountOf(await app.getByTestId('balance-main-amount').innerText())).toBe(100)
  return app
}

describe('the web client keeps the session in the cookies', () => {
  it('weba on 9.1: the refresh token in its cookie, nothing to SecureStorage, and the next open signs in from the cookies', async () => {
    const user = nextUser()
    await makeMember(stack, user)
    const page = await stack.browser.newPage({ viewport: { width: 1100, height: 900 } })
    page.setDefaultTimeout(15_000)
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))

    const app = await openOnWeb(page, user, '9.1')
    // The app was launched as the web client of a SecureStorage version.
    const launchParams = new URLSearchParams((await frameEval(app, () => location.hash)).slice(1))
    expect(launchParams.get('tgWebAppPlatform')).toBe('weba')
    expect(launchParams.get('tgWebAppVersion')).toBe('9.1')
    await expect.poll(() => cookie(app, 'refresh_token')).toMatch(/\S/)
    expect(await cookie(app, 'auth_token')).toMatch(/\S/)
    const refresh = (await cookie(app, 'refresh_token'))!
    // Each open's record is the emulator page's own: read before the next open replaces it.
    expect(await secureStorageTraffic(page)).toEqual([])

    // Opened again: the auth_token cookie signs in, with no sign-in request at all.
    const signIns = watchSignIns(page)
    await openOnWeb(page, user, '9.1')
    expect(signIns).toEqual([])
    expect(await cookie(app, 'refresh_token')).toBe(refresh)
    expect(await secureStorageTraffic(page)).toEqual([])

    // A later open, the auth_token gone: the refresh token from the cookie signs in, and its successor is a cookie again.
    await frameEval(app, () => (document.cookie = 'auth_token=; Max-Age=0; Path=/'))
    await openOnWeb(page, user, '9.1')
    expect(signIns).toEqual([{ path: 'refresh', refresh }])
    await expect.poll(() => cookie(app, 'refresh_token')).not.toBe(refresh)
    expect(await cookie(app, 'refresh_token')).toMatch(/\S/)
    expect(await secureStorageTraffic(page)).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  })
})
