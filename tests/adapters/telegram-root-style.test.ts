import { readFileSync } from 'node:fs'
import vm from 'node:vm'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type ParamsStorage, readInitParams } from '../../adapters/browser/launch-params.ts'
import { TELEGRAM_THEME_PARAMS_KEY, telegramRootStyle } from '../../adapters/browser/telegram-root-style.ts'

/** The Telegram SDK as the app loads it: @twa-dev/sdk's copy of telegram-web-app.js. */
const SDK_CODE = readFileSync('node_modules/@twa-dev/sdk/dist/telegram-web-apps.js', 'utf8')

/** sessionStorage as a plain map. */
const memoryStorage = (initial: Record<string, string> = {}): ParamsStorage => {
  const items = new Map(Object.entries(initial))
  return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v) }
}

/**
 * The root's custom properties after the real SDK has been evaluated, at the top of a page with this
 * hash and this tab's sessionStorage: the script runs in a context of its own whose
 * `document.documentElement.style.setProperty` records each call (the last value of each name wins,
 * as on a page).
 */
const sdkRootStyle = (hash: string, stored: Record<string, string>): Map<string, string> => {
  const set = new Map<string, string>()
  const items = new Map(Object.entries(stored))
  const noop = () => {}
  const element = () => ({ style: {}, setAttribute: noop, appendChild: noop })
  const page: Record<string, unknown> = {
    location: { hash, toString: () => `https://app.example/${hash}` },
    sessionStorage: { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, String(v)) },
    navigator: { userAgent: 'Mozilla/5.0' },
    innerHeight: 800,
    addEventListener: noop,
    removeEventListener: noop,
    setTimeout,
    clearTimeout,
    console: { log: noop, warn: noop, error: noop, info: noop },
    document: {
      documentElement: { style: { setProperty: (name: string, value: string) => void set.set(name, value) } },
      head: element(),
      body: element(),
      createElement: element,
      getElementById: () => null,
      addEventListener: noop,
      removeEventListener: noop,
    },
  }
  page.window = page.self = page.parent = page.top = page
  vm.runInContext(SDK_CODE, vm.createContext(page))
  return set
}

const hashWithTheme = (theme: unknown) => `#tgWebAppData=query_id%3DAA&tgWebAppVersion=9.1&tgWebAppPlatform=ios&tgWebAppThemeParams=${encodeURIComponent(JSON.stringify(theme))}`

const entryRootStyle = (hash: string, stored: Record<string, string>) => {
  const storage = memoryStorage(stored)
  return telegramRootStyle(readInitParams(hash, storage), storage)
}

describe('the root style the entry sets before the Telegram SDK has loaded', () => {
  it('Telegram Desktop’s night theme: each colour as --tg-theme-*, lower case, the scheme dark, the heights 100vh', () => {
    // Written by hand from Telegram's Mini Apps docs (ThemeParams: `bg_color`, … as #RRGGBB).
    const hash = hashWithTheme({ bg_color: '#17212B', text_color: '#f5f5f5', secondary_bg_color: '#232e3c', button_text_color: '#FFFFFF' })
    expect(Object.fromEntries(entryRootStyle(hash, {}))).toEqual({
      '--tg-color-scheme': 'dark',
      '--tg-theme-bg-color': '#17212b',
      '--tg-theme-text-color': '#f5f5f5',
      '--tg-theme-secondary-bg-color': '#232e3c',
      '--tg-theme-button-text-color': '#ffffff',
      '--tg-viewport-height': '100vh',
      '--tg-viewport-stable-height': '100vh',
    })
  })

  it('the scheme by the background’s perceived brightness: #797979 is light (HSP 121), #787878 dark (120 less a rounding, as the SDK computes it)', () => {
    expect(entryRootStyle(hashWithTheme({ bg_color: '#797979' }), {}).get('--tg-color-scheme')).toBe('light')
    expect(entryRootStyle(hashWithTheme({ bg_color: '#787878' }), {}).get('--tg-color-scheme')).toBe('dark')
    expect(sdkRootStyle(hashWithTheme({ bg_color: '#787878' }), {}).get('--tg-color-scheme')).toBe('dark')
  })

  it('iOS’s dark theme with both backgrounds #1c1c1d: the secondary one #2c2c2e, as the SDK makes it', () => {
    const style = entryRootStyle(hashWithTheme({ bg_color: '#1c1c1d', secondary_bg_color: '#1c1c1d' }), {})
    expect(style.get('--tg-theme-secondary-bg-color')).toBe('#2c2c2e')
  })

  it('a reload of the tab: the theme the SDK kept in sessionStorage wins over the hash’s, key by key', () => {
    const stored = { [TELEGRAM_THEME_PARAMS_KEY]: JSON.stringify({ bg_color: '#ffffff', link_color: '#2481cc' }) }
    const style = entryRootStyle(hashWithTheme({ bg_color: '#17212b', text_color: '#f5f5f5' }), stored)
    expect(style.get('--tg-theme-bg-color')).toBe('#ffffff')
    expect(style.get('--tg-color-scheme')).toBe('light')
    expect(style.get('--tg-theme-text-color')).toBe('#f5f5f5')
    expect(style.get('--tg-theme-link-color')).toBe('#2481cc')
  })

  it('outside Telegram (no theme) only the heights; a theme that is not JSON, or storage that refuses, is no theme', () => {
    expect([...entryRootStyle('', {}).keys()]).toEqual(['--tg-viewport-height', '--tg-viewport-stable-height'])
    expect(entryRootStyle('#tgWebAppThemeParams=%7Bnot-json', {}).size).toBe(2)
    const refusing: ParamsStorage = {
      getItem: () => {
        throw new Error('SecurityError')
      },
      setItem: () => {
        throw new Error('SecurityError')
      },
    }
    expect(telegramRootStyle(readInitParams(hashWithTheme({ bg_color: '#000000' }), refusing), refusing).get('--tg-theme-bg-color')).toBe('#000000')
  })

  // The law the change rests on: the SDK, evaluated after the entry, sets every property the entry
  // set to the value it already has (Chromium then restyles nothing). Checked against the real SDK.
  const hex6 = fc
    .tuple(fc.integer({ min: 0, max: 0xffffff }), fc.boolean(), fc.constantFrom('', ' '))
    .map(([n, upper, pad]) => {
      const hex = `#${n.toString(16).padStart(6, '0')}`
      return `${pad}${upper ? hex.toUpperCase() : hex}${pad}`
    })
  const colour = fc.oneof(
    { weight: 6, arbitrary: hex6 },
    { weight: 1, arbitrary: fc.constantFrom('#1c1c1d', '#abc', 'rgb(10, 20, 30)', 'rgba(1, 2, 3, 0.5)', 'transparent', '', 'red') },
    { weight: 1, arbitrary: fc.constantFrom(0, null, true) },
  )
  const key = fc.constantFrom('bg_color', 'secondary_bg_color', 'text_color', 'hint_color', 'link_color', 'button_color', 'button_text_color', 'header_bg_color', 'bottom_bar_bg_color', 'section_separator_color', 'accent_text_color')
  const theme = fc.dictionary(key, colour, { maxKeys: 11 })

  it('law: whatever theme the hash and the tab hold, the SDK leaves each property the entry set as the entry set it', () => {
    fc.assert(
      fc.property(theme, fc.option(theme, { nil: undefined }), (launchTheme, storedTheme) => {
        const hash = hashWithTheme(launchTheme)
        const stored: Record<string, string> = storedTheme === undefined ? {} : { [TELEGRAM_THEME_PARAMS_KEY]: JSON.stringify(storedTheme) }
        const entry = entryRootStyle(hash, stored)
        const sdk = sdkRootStyle(hash, stored)
        for (const [name, value] of entry) expect([name, sdk.get(name)]).toEqual([name, value])
        // And with #rrggbb colours only (what Telegram's clients send), it sets nothing more.
        const onlyHex = [launchTheme, storedTheme ?? {}].every((t) => Object.values(t).every((v) => typeof v === 'string' && /^\s*#[0-9a-f]{6}\s*$/i.test(v)))
        if (onlyHex) expect([...sdk.keys()].sort()).toEqual([...entry.keys()].sort())
      }),
      { numRuns: 300 },
    )
  })
})
