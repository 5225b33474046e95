/**
 * Telegram's launch parameters, read from the page's URL without the SDK, so that the entry knows
 * who is launching before @twa-dev/sdk has downloaded. Telegram puts them in the hash:
 * `#tgWebAppData=<urlencoded initData>&tgWebAppVersion=7.10&tgWebAppPlatform=ios&tgWebAppThemeParams=…`
 * (and `tgWebAppStartParam` when there is one). The rules are telegram-web-app.js's, which the SDK
 * wraps: the hash is parsed as a query string (`+` is a space, a value that does not decode is kept
 * as it is), and what the hash lacks is taken from sessionStorage's `__telegram__initParams`, where
 * the SDK keeps the parameters of an earlier load of this tab (a reload that lost the hash). The
 * merged set is written back there, as the SDK does, so a reload before the SDK has loaded still
 * finds them. Framework-free and effect-free: it runs in the entry.
 */

/** Where telegram-web-app.js keeps the launch parameters of this tab. */
export const TELEGRAM_INIT_PARAMS_KEY = '__telegram__initParams'

/** The launch parameters by name (`tgWebAppData`, `tgWebAppVersion`, …); a name without `=` has null. */
export type InitParams = Readonly<Record<string, string | null>>

/** The version telegram-web-app.js assumes when the client does not say (Bot API 6.0). */
export const DEFAULT_CLIENT_VERSION = '6.0'
/** The platform telegram-web-app.js reports when the client does not say. */
export const UNKNOWN_PLATFORM = 'unknown'

/** The storage the parameters are kept in: sessionStorage, or a fake. */
export type ParamsStorage = Pick<Storage, 'getItem' | 'setItem'>

/** `+` is a space; a value that does not decode is kept (with its `+` already made `%20`, as the SDK does). */
const urlSafeDecode = (text: string): string => {
  const spaced = text.replace(/\+/g, '%20')
  try {
    return decodeURIComponent(spaced)
  } catch {
    return spaced
  }
}

/** A query string's pairs, decoded as telegram-web-app.js decodes them; a later repeat wins. */
export const parseQueryString = (query: string): Record<string, string | null> => {
  const params: Record<string, string | null> = {}
  if (!query) return params
  for (const pair of query.split('&')) {
    const [name = '', value] = pair.split('=')
    params[urlSafeDecode(name)] = value === undefined ? null : urlSafeDecode(value)
  }
  return params
}

/** The parameters in a location hash (with or without its `#`), as telegram-web-app.js reads them. */
export const parseHashParams = (hash: string): Record<string, string | null> => {
  let rest = hash.replace(/^#/, '')
  if (!rest) return {}
  if (!rest.includes('=') && !rest.includes('?')) return { _path: urlSafeDecode(rest) }
  const params: Record<string, string | null> = {}
  const q = rest.indexOf('?')
  if (q >= 0) {
    params._path = urlSafeDecode(rest.slice(0, q))
    rest = rest.slice(q + 1)
  }
  return { ...params, ...parseQueryString(rest) }
}

/** A JSON object's fields, or null for anything else (no text, not JSON, an array, a value). */
export const jsonObject = (text: string | null | undefined): Record<string, unknown> | null => {
  try {
    const parsed: unknown = JSON.parse(text ?? 'null')
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** What `storage` keeps under `key` (the SDK's JSON), or null; storage that refuses keeps nothing. */
export const storedJson = (storage: ParamsStorage | null, key: string): Record<string, unknown> | null => {
  try {
    return jsonObject(storage?.getItem(key))
  } catch {
    return null
  }
}

/**
 * The launch parameters of this page: the hash's, completed by those stored for this tab (the hash
 * wins), and the result stored again, at once or in the task `later` runs it in. Storage that
 * refuses (private mode, a sandboxed frame) is skipped.
 */
export const readInitParams = (hash: string, storage: ParamsStorage | null, later: (keep: () => void) => void = (keep) => keep()): InitParams => {
  const params = parseHashParams(hash)
  for (const [key, value] of Object.entries(storedJson(storage, TELEGRAM_INIT_PARAMS_KEY) ?? {})) {
    if (!(key in params) && (typeof value === 'string' || value === null)) params[key] = value
  }
  const kept = JSON.stringify(params)
  later(() => {
    try {
      storage?.setItem(TELEGRAM_INIT_PARAMS_KEY, kept)
    } catch {
      // Nowhere to keep them: a reload that loses the hash will not find them, as with the SDK.
    }
  })
  return params
}

/** The fields of initData the app reads, decoded as the SDK's `initDataUnsafe` (JSON objects parsed). */
export interface InitDataUnsafe {
  readonly user?: { readonly id: number; readonly language_code?: string; readonly allows_write_to_pm?: boolean }
  readonly start_param?: string
}

/** initData's fields, as telegram-web-app.js's `initDataUnsafe`: a value that looks like JSON is parsed. */
export const initDataUnsafeOf = (initData: string): InitDataUnsafe => {
  const fields: Record<string, unknown> = parseQueryString(initData)
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value !== 'string') continue
    if ((value.startsWith('{') && value.endsWith('}')) || (value.startsWith('[') && value.endsWith(']'))) {
      try {
        fields[key] = JSON.parse(value)
      } catch {
        // Kept as the string it was, as the SDK does.
      }
    }
  }
  const user = fields.user as { id?: unknown; language_code?: unknown; allows_write_to_pm?: unknown } | undefined
  return {
    ...(user && typeof user === 'object' && typeof user.id === 'number'
      ? {
          user: {
            id: user.id,
            ...(typeof user.language_code === 'string' ? { language_code: user.language_code } : {}),
            ...(typeof user.allows_write_to_pm === 'boolean' ? { allows_write_to_pm: user.allows_write_to_pm } : {}),
          },
        }
      : {}),
    ...(typeof fields.start_param === 'string' ? { start_param: fields.start_param } : {}),
  }
}

/** What the app was launched with, read from the parameters. `initData` is '' outside Telegram. */
export interface LaunchParams {
  /** The raw signed init data (`tgWebAppData`), exactly as received; '' when there is none. */
  readonly initData: string
  readonly initDataUnsafe: InitDataUnsafe
  readonly version: string
  readonly platform: string
  /** `tgWebAppStartParam` of the hash, for a launch whose init data carries none. */
  readonly startParam: string | null
}

export const launchParamsOf = (params: InitParams): LaunchParams => {
  const initData = params.tgWebAppData ?? ''
  return {
    initData,
    initDataUnsafe: initData ? initDataUnsafeOf(initData) : {},
    version: params.tgWebAppVersion || DEFAULT_CLIENT_VERSION,
    platform: params.tgWebAppPlatform || UNKNOWN_PLATFORM,
    startParam: params.tgWebAppStartParam || null,
  }
}

/**
 * The current page's launch parameters (`location.hash`, completed from `sessionStorage`), and that
 * storage. They are written back in the next task: the entry's task runs before the loader's first
 * paint, and a first visit's first write to the tab's storage was a good part of it.
 */
export const pageInitParams = (): { readonly params: InitParams; readonly storage: ParamsStorage | null } => {
  let hash = ''
  let storage: ParamsStorage | null = null
  try {
    hash = globalThis.location.hash
  } catch {
    // No location: no hash.
  }
  try {
    storage = globalThis.sessionStorage
  } catch {
    // Storage access throws in some sandboxed frames.
  }
  return { params: readInitParams(hash, storage, (keep) => setTimeout(keep, 0)), storage }
}

/** What the current page was launched with. */
export const pageLaunchParams = (): LaunchParams => launchParamsOf(pageInitParams().params)
