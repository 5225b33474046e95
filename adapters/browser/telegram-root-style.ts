/**
 * The `--tg-*` custom properties telegram-web-app.js (inside @twa-dev/sdk) sets on the page's root
 * when it is evaluated, worked out from the same inputs before it has downloaded, so that the entry
 * can set them first:
 * - the first paint is already in the user's Telegram theme (the app's CSS reads
 *   `--tg-theme-*` with light fallbacks, so a dark theme's user saw the light page until the SDK came);
 * - the SDK's own `setProperty` calls then set each property to the value it already has, which
 *   Chromium does not count as a change: no restyle of the whole painted dashboard in the SDK's
 *   evaluation (a custom property on the root is inherited by every element).
 *
 * The rules are the SDK's (`setThemeParams`, `parseColorToHex`, `isColorDark`, `setViewportHeight`):
 * the theme of the launch's `tgWebAppThemeParams`, then the one kept in sessionStorage's
 * `__telegram__themeParams` by an earlier load of this tab, on top; each `#rrggbb` colour in lower
 * case (a property whose last value is anything else is left to the SDK); `--tg-color-scheme` from the
 * background's perceived brightness; both viewport heights `100vh` until the client reports one.
 * Framework-free and effect-free: it runs in the entry.
 */
import { type InitParams, jsonObject, type ParamsStorage, storedJson } from './launch-params.ts'

/** Where telegram-web-app.js keeps the theme of this tab. */
export const TELEGRAM_THEME_PARAMS_KEY = '__telegram__themeParams'

/**
 * A colour as the SDK normalises it, `#rrggbb` in lower case, or null. Telegram's clients send
 * `#rrggbb`; the SDK also takes `#rgb` and `rgb()`, which are left to it (it then sets them itself,
 * and the page restyles once, as it did before the entry set anything).
 */
export const telegramColorHex = (value: unknown): string | null => {
  const match = /^\s*(#[0-9a-f]{6})\s*$/i.exec(String(value))
  return match ? match[1]!.toLowerCase() : null
}

/** Whether a `#rrggbb` background is dark, by the SDK's perceived brightness (HSP below 120), computed as it does. */
export const isDarkColor = (hex: string): boolean => {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number]
  return Math.sqrt(0.299 * (r * r) + 0.587 * (g * g) + 0.114 * (b * b)) < 120
}

/**
 * The root's custom properties as the SDK leaves them at the end of its evaluation, name (with
 * `--tg-`) to value, for a launch with these parameters and this tab's storage.
 */
export const telegramRootStyle = (params: InitParams, storage: ParamsStorage | null): Map<string, string> => {
  const style = new Map<string, string>()
  for (const theme of [jsonObject(params.tgWebAppThemeParams), storedJson(storage, TELEGRAM_THEME_PARAMS_KEY)]) {
    if (!theme) continue
    // The SDK's fix for iOS's dark theme, whose two backgrounds come the same.
    if (theme.bg_color === '#1c1c1d' && theme.secondary_bg_color === theme.bg_color) theme.secondary_bg_color = '#2c2c2e'
    for (const [key, value] of Object.entries(theme)) {
      const name = `--tg-theme-${key.replaceAll('_', '-')}`
      const color = telegramColorHex(value)
      // A value this does not read (the SDK may, or may keep the one before): left to the SDK.
      if (color === null) style.delete(name)
      else style.set(name, color)
      if (key !== 'bg_color') continue
      if (color === null) style.delete('--tg-color-scheme')
      else style.set('--tg-color-scheme', isDarkColor(color) ? 'dark' : 'light')
    }
  }
  style.set('--tg-viewport-height', '100vh')
  style.set('--tg-viewport-stable-height', '100vh')
  return style
}

/** Sets the properties on the root's inline style, as the SDK will. */
export const applyRootStyle = (root: HTMLElement, style: ReadonlyMap<string, string>): void => {
  for (const [name, value] of style) root.style.setProperty(name, value)
}
