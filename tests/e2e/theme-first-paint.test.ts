import { describe, expect, it } from 'vitest'
import { THEMES } from '../../stand-ins/telegram-host/themes.ts'
import { frameEval, nextUser } from './helpers.ts'
import { activeBond, launch, makeMember, useStack } from './stack.ts'

const stack = useStack()

/** `#rrggbb` as the browser reports a computed colour. */
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`

/**
 * Recorded in the app's frame from before its first script: the page's background when the dashboard
 * first enters the DOM, and each change of the root's inline style with the theme's properties it
 * then holds and whether the Telegram SDK (window.Telegram.WebApp) had been evaluated by then.
 */
const RECORDER = `if (window !== window.top) {
  const w = window
  w.__rootStyles = []
  const theme = () => { const s = document.documentElement.style; return [...s].filter((p) => p.startsWith('--tg-theme-') || p === '--tg-color-scheme').map((p) => p + ':' + s.getPropertyValue(p)).sort().join(';') }
  // (The document has no root element yet when this runs: the whole document is observed.)
  new MutationObserver((records) => {
    if (records.some((r) => r.target === document.documentElement)) w.__rootStyles.push({ sdk: !!(w.Telegram && w.Telegram.WebApp), theme: theme() })
  }).observe(document, { attributes: true, attributeFilter: ['style'], subtree: true })
  new MutationObserver((_, obs) => {
    if (!document.querySelector('[data-testid="screen-dashboard"]')) return
    w.__dashboardBackground = getComputedStyle(document.body).backgroundColor
    w.__sdkAtDashboard = !!(w.Telegram && w.Telegram.WebApp)
    obs.disconnect()
  }).observe(document, { childList: true, subtree: true })
}`

interface Recorded {
  readonly rootStyles: Array<{ sdk: boolean; theme: string }>
  readonly dashboardBackground: string
  readonly sdkAtDashboard: boolean
}

describe('the Telegram theme at the first paint', () => {
  it('paints the dashboard in a dark-theme user’s colours before the SDK has loaded, and the SDK’s arrival changes none of them', async () => {
    const user = nextUser()
    await makeMember(stack, user)
    await activeBond(stack, user, 12.5, 30)
    const page = await stack.browser.newPage({ viewport: { width: 1100, height: 900 } })
    await page.addInitScript({ content: RECORDER })
    const { app, errors } = await launch(stack, { user, page, scheme: 'dark', version: '9.1' })
    await app.getByTestId('screen-dashboard').waitFor()
    // Wait for the SDK: the platform's parts load it after the first paint.
    await expect.poll(() => frameEval(app, () => !!(window as unknown as { Telegram?: { WebApp?: unknown } }).Telegram?.WebApp)).toBe(true)
    const seen = await frameEval(app, () => {
      const w = window as unknown as { __rootStyles: Recorded['rootStyles']; __dashboardBackground: string; __sdkAtDashboard: boolean }
      return { rootStyles: w.__rootStyles, dashboardBackground: w.__dashboardBackground, sdkAtDashboard: w.__sdkAtDashboard }
    })
    // The dashboard appeared before the SDK, and already on the theme's background (base.css: --bg is
    // the secondary background), not the light fallback.
    expect(seen.sdkAtDashboard).toBe(false)
    expect(seen.dashboardBackground).toBe(rgb(THEMES.dark.secondary_bg_color!))
    // Every theme colour the client sent, set on the root by the entry, written out here by hand from
    // the launch's theme (Telegram's keys, `_` as `-`), with the scheme from the background.
    const expected = [
      ...Object.entries(THEMES.dark).map(([key, color]) => `--tg-theme-${key.replaceAll('_', '-')}:${color}`),
      '--tg-color-scheme:dark',
    ]
      .sort()
      .join(';')
    const beforeSdk = seen.rootStyles.filter((r) => !r.sdk)
    const afterSdk = seen.rootStyles.filter((r) => r.sdk)
    expect(beforeSdk.at(-1)?.theme).toBe(expected)
    // The SDK set each of them to the value it already had: no change of the theme from its arrival on
    // (the client's later viewport and safe-area reports may still change the root's style).
    expect(afterSdk.filter((r) => r.theme !== expected)).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  })
})
