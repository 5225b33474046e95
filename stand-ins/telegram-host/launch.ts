import { randomBytes } from 'node:crypto'
import { signInitData } from '../../adapters/node/telegram-init-data.ts'
import { THEMES, type ColorScheme } from './themes.ts'

/** What the emulator's form sends to POST /launch. */
export interface LaunchRequest {
  readonly user: {
    readonly id: number
    readonly first_name: string
    readonly last_name?: string
    readonly username?: string
    readonly language_code?: string
    readonly is_premium?: boolean
  }
  /** A referral code or `farm_<code>`; empty or absent for none. */
  readonly start_param?: string
  /** The client's Bot API version, e.g. "6.0", "7.10", "8.0". */
  readonly version?: string
  readonly platform?: string
  readonly color_scheme?: ColorScheme
  /** Telegram for Android's device class, which it appends to the WebView's User-Agent (android platforms only). */
  readonly performance_class?: PerformanceClass
}

export const PERFORMANCE_CLASSES = ['LOW', 'AVERAGE', 'HIGH'] as const
export type PerformanceClass = (typeof PERFORMANCE_CLASSES)[number]

/**
 * The User-Agent Telegram for Android gives its WebView: the system's, then
 * `Telegram-Android/<app version> (<maker> <model>; Android <v>; SDK <n>; <class>)`
 * (core.telegram.org/bots/webapps, "Additional data in User-Agent"). Null when the launch names no class.
 */
export const userAgentFor = (req: LaunchRequest): string | null =>
  req.performance_class
    ? 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 ' +
      `Telegram-Android/11.11.0 (Google Pixel 7; Android 14; SDK 34; ${req.performance_class})`
    : null

export interface Launch {
  /** The fragment to put after `#` in the app URL, as Telegram builds it. */
  readonly hash: string
  /** The raw signed initData (tgWebAppData). */
  readonly initData: string
}

export const DEFAULT_VERSION = '8.0'
export const DEFAULT_PLATFORM = 'ios'
export const PLATFORMS = ['ios', 'android', 'android_x', 'tdesktop', 'macos', 'weba', 'webk', 'unknown'] as const
/** Telegram user ids fit in 52 bits. */
const MAX_USER_ID = 2 ** 52
const START_PARAM = /^[A-Za-z0-9_-]{0,512}$/
const VERSION = /^\d{1,2}(\.\d{1,2}){0,2}$/
const LANGUAGE = /^[a-z]{2,3}(-[A-Za-z0-9]{1,8})?$/
const USERNAME = /^[A-Za-z0-9_]{1,32}$/

export class LaunchError extends Error {}

const text = (v: unknown, field: string, max: number): string => {
  if (typeof v !== 'string' || v.trim() === '' || v.length > max) throw new LaunchError(`${field} must be 1–${max} characters`)
  return v
}

/** Checks a POST /launch body; throws LaunchError with a readable message. */
export const parseLaunchRequest = (body: unknown): LaunchRequest => {
  if (typeof body !== 'object' || body === null) throw new LaunchError('body must be a JSON object')
  const b = body as Record<string, unknown>
  if (typeof b.user !== 'object' || b.user === null) throw new LaunchError('user is required')
  const u = b.user as Record<string, unknown>
  const id = typeof u.id === 'string' && /^\d+$/.test(u.id) ? Number(u.id) : u.id
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0 || id >= MAX_USER_ID) {
    throw new LaunchError('user.id must be a positive integer below 2^52')
  }
  const user: { -readonly [K in keyof LaunchRequest['user']]: LaunchRequest['user'][K] } = {
    id,
    first_name: text(u.first_name, 'user.first_name', 64),
  }
  if (u.last_name !== undefined && u.last_name !== '') user.last_name = text(u.last_name, 'user.last_name', 64)
  if (u.username !== undefined && u.username !== '') {
    if (typeof u.username !== 'string' || !USERNAME.test(u.username)) throw new LaunchError('user.username is not a username')
    user.username = u.username
  }
  if (u.language_code !== undefined && u.language_code !== '') {
    if (typeof u.language_code !== 'string' || !LANGUAGE.test(u.language_code)) throw new LaunchError('user.language_code is not a language code')
    user.language_code = u.language_code
  }
  if (u.is_premium !== undefined) {
    if (typeof u.is_premium !== 'boolean') throw new LaunchError('user.is_premium must be a boolean')
    if (u.is_premium) user.is_premium = true
  }
  const startParam = b.start_param ?? ''
  if (typeof startParam !== 'string' || !START_PARAM.test(startParam)) {
    throw new LaunchError('start_param: up to 512 of A-Z a-z 0-9 _ -')
  }
  const version = b.version ?? DEFAULT_VERSION
  if (typeof version !== 'string' || !VERSION.test(version)) throw new LaunchError('version must look like 8.0')
  const platform = b.platform ?? DEFAULT_PLATFORM
  if (typeof platform !== 'string' || !(PLATFORMS as readonly string[]).includes(platform)) {
    throw new LaunchError(`platform must be one of ${PLATFORMS.join(', ')}`)
  }
  const scheme = b.color_scheme ?? 'light'
  if (scheme !== 'light' && scheme !== 'dark') throw new LaunchError('color_scheme must be light or dark')
  const perf = b.performance_class ?? ''
  if (perf !== '') {
    if (!(PERFORMANCE_CLASSES as readonly unknown[]).includes(perf)) throw new LaunchError(`performance_class must be one of ${PERFORMANCE_CLASSES.join(', ')}`)
    if (!platform.startsWith('android')) throw new LaunchError('performance_class is Telegram for Android’s: use platform android or android_x')
  }
  return { user, start_param: startParam, version, platform, color_scheme: scheme, ...(perf ? { performance_class: perf as PerformanceClass } : {}) }
}

/** The first Bot API version whose clients send the Ed25519 `signature` field in initData. */
export const SIGNATURE_SINCE_VERSION = '8.0'

/** Is Bot API version `v` at least `min`? Compared part by part as numbers ("7.10" is above "7.9"). */
export const versionAtLeast = (v: string, min: string): boolean => {
  const a = v.split('.').map(Number)
  const b = min.split('.').map(Number)
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0)
    if (d !== 0) return d > 0
  }
  return true
}

/**
 * Signs initData for `req` with the bot token, the way Telegram does, and builds the launch
 * fragment: tgWebAppData, tgWebAppVersion, tgWebAppPlatform, tgWebAppThemeParams and, when there is
 * one, tgWebAppStartParam. Like real clients, a version from 8.0 on adds a `signature` (Telegram's
 * Ed25519 signature for third parties; random bytes here, as only Telegram holds that key), and an
 * older one sends none.
 */
export const buildLaunch = (req: LaunchRequest, botToken: string, now: Date = new Date(), o: { readonly allowsWriteToPm?: boolean } = {}): Launch => {
  const startParam = req.start_param ?? ''
  const version = req.version ?? DEFAULT_VERSION
  const queryId = `AA${req.user.id.toString(36)}${now.getTime().toString(36)}`
  const initData = signInitData(
    {
      query_id: queryId,
      // Whether the bot may write to the user (they started it or allowed it); Telegram sends it as a field of the user.
      user: JSON.stringify({ ...req.user, allows_write_to_pm: o.allowsWriteToPm ?? true }),
      chat_instance: String(8_000_000_000_000_000_000n + BigInt(req.user.id)),
      chat_type: 'sender',
      ...(startParam ? { start_param: startParam } : {}),
      auth_date: String(Math.floor(now.getTime() / 1000)),
      ...(versionAtLeast(version, SIGNATURE_SINCE_VERSION) ? { signature: randomBytes(64).toString('base64url') } : {}),
    },
    botToken,
  )
  const params = new URLSearchParams()
  params.set('tgWebAppData', initData)
  params.set('tgWebAppVersion', version)
  params.set('tgWebAppPlatform', req.platform ?? DEFAULT_PLATFORM)
  params.set('tgWebAppThemeParams', JSON.stringify(THEMES[req.color_scheme ?? 'light']))
  // Always present, even empty: telegram-web-app.js keeps the previous launch's parameters in
  // sessionStorage and only fills the ones the new hash lacks, so an absent one would leak over.
  params.set('tgWebAppStartParam', startParam)
  // URLSearchParams writes spaces as '+', which the SDK decodes too; %20 is what Telegram sends.
  return { hash: params.toString().replace(/\+/g, '%20'), initData }
}

/** Where the emulated bot's mini app lives: the bot's username and the app's short name. */
export interface MiniAppNames {
  readonly botUsername: string
  readonly appShortName: string
}

/** What opening a t.me link to the bot gives, as Telegram routes it. */
export interface LinkLaunch {
  /** 'mini-app': the link opens the app with `start_param`; 'bot-chat': the bot's chat opens instead. */
  readonly opens: 'mini-app' | 'bot-chat'
  /** What the mini app is launched with: the link's `startapp`, or '' (a `?start=` code goes to the bot, not to the app). */
  readonly start_param: string
  /** A `?start=` link's code, which Telegram sends to the bot as `/start <code>`. */
  readonly bot_start?: string
}

/**
 * Routes a t.me link to the emulated bot the way Telegram does:
 * - `https://t.me/<bot>/<app>?startapp=X` (the mini app's direct link) opens the app with start_param X;
 * - `https://t.me/<bot>?startapp=X` opens the bot's main mini app, also with X;
 * - `https://t.me/<bot>?start=X` opens the bot's chat and sends it `/start X`: the app, opened
 *   afterwards from the chat's menu button, gets no start parameter.
 * Anything else is not a link into this bot, and throws LaunchError.
 */
export const launchFromLink = (link: unknown, names: MiniAppNames): LinkLaunch => {
  if (typeof link !== 'string' || link.length > 2048) throw new LaunchError('link must be a t.me link')
  let url: URL
  try {
    url = new URL(link)
  } catch {
    throw new LaunchError('link must be a t.me link')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new LaunchError('link must be a t.me link')
  if (url.hostname !== 't.me' && url.hostname !== 'telegram.me') throw new LaunchError('link must be a t.me link')
  const [bot = '', app, ...rest] = url.pathname.split('/').filter(Boolean)
  if (bot.toLowerCase() !== names.botUsername.toLowerCase() || rest.length > 0) {
    throw new LaunchError(`link must open @${names.botUsername}: t.me/${names.botUsername}/${names.appShortName}?startapp=…`)
  }
  if (app !== undefined && app.toLowerCase() !== names.appShortName.toLowerCase()) {
    throw new LaunchError(`@${names.botUsername} has no mini app named ${app} (its app is ${names.appShortName})`)
  }
  const startapp = url.searchParams.get('startapp')
  const checked = (v: string, field: string) => {
    if (!START_PARAM.test(v)) throw new LaunchError(`${field}: up to 512 of A-Z a-z 0-9 _ -`)
    return v
  }
  if (app !== undefined || startapp !== null) return { opens: 'mini-app', start_param: checked(startapp ?? '', 'startapp') }
  const start = url.searchParams.get('start')
  return { opens: 'bot-chat', start_param: '', ...(start ? { bot_start: checked(start, 'start') } : {}) }
}
