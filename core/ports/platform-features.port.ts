/**
 * What Telegram's clients of Bot API 7.2–9.x offer beyond the start-up calls: fullscreen and its
 * insets, the home-screen shortcut, biometrics, the device's secure and plain key-value storage, and
 * what the device says of its speed. Each capability says whether this client has it; a call on a
 * client without it posts nothing and answers `unsupported`, so the caller falls back (cookies,
 * localStorage, the ordinary layout). No call throws: every outcome is a typed result.
 */

/** Distances in CSS pixels the app keeps clear of, from each edge. */
export interface Insets {
  readonly top: number
  readonly bottom: number
  readonly left: number
  readonly right: number
}

export const NO_INSETS: Insets = { top: 0, bottom: 0, left: 0, right: 0 }

/** The client did not answer in time. */
export interface TimedOut {
  readonly kind: 'timeout'
}

/** This client (its version, or no Telegram at all) cannot do it; nothing was asked. */
export interface Unsupported {
  readonly kind: 'unsupported'
}

/**
 * How a fullscreen request ended: in fullscreen (also when it already was), or refused by the client
 * with its error (`UNSUPPORTED`, or another the client names).
 */
export type FullscreenResult = { readonly kind: 'fullscreen' } | { readonly kind: 'failed'; readonly error: string } | Unsupported | TimedOut

export interface FullscreenCapability {
  /** Bot API 8.0+. */
  readonly supported: boolean
  isFullscreen(): boolean
  request(): Promise<FullscreenResult>
  /** Leaves fullscreen; the change arrives through onChange. */
  exit(): void
  /** Entering or leaving fullscreen, however it happened. Returns an unsubscribe. */
  onChange(listener: (fullscreen: boolean) => void): () => void
  /** Every refusal the client reports (`fullscreen_failed`), the app's request or not. */
  onFailure(listener: (error: string) => void): () => void
}

export interface InsetsState {
  /** The device's own: notch, status bar, home indicator. */
  readonly safeArea: Insets
  /** Telegram's controls drawn over the app (its header buttons in fullscreen), inside the safe area. */
  readonly contentSafeArea: Insets
}

export interface InsetsCapability {
  /** Bot API 8.0+; without it both are zero. */
  readonly supported: boolean
  current(): InsetsState
  /** Each change the client reports, including the late first answer. Returns an unsubscribe. */
  onChange(listener: (insets: InsetsState) => void): () => void
}

/** Telegram's answer to `web_app_check_home_screen`. */
export type HomeScreenStatus = 'unsupported' | 'unknown' | 'added' | 'missed'

/** `unknown`: asked, but the client may not tell (Telegram's docs: it cannot always know). */
export type HomeScreenAddResult = { readonly kind: 'added' } | { readonly kind: 'declined' } | { readonly kind: 'unknown' } | Unsupported

export interface HomeScreenCapability {
  /** Bot API 8.0+. */
  readonly supported: boolean
  /** An old client, or one that does not answer in time, reads `unsupported` / `unknown`. */
  check(): Promise<HomeScreenStatus>
  add(): Promise<HomeScreenAddResult>
}

export type BiometryType = 'face' | 'finger' | 'unknown'

export interface BiometryInfo {
  readonly available: boolean
  readonly type: BiometryType
  readonly accessRequested: boolean
  readonly accessGranted: boolean
  /** Telegram's id for this device, to tell a token's device. */
  readonly deviceId: string
  readonly tokenSaved: boolean
}

export type BiometryInfoResult = { readonly kind: 'info'; readonly info: BiometryInfo } | Unsupported | TimedOut

export type BiometryAccessResult =
  | { readonly kind: 'granted' }
  | { readonly kind: 'denied' }
  /** The device has no biometrics the client can use. */
  | { readonly kind: 'unavailable' }
  | Unsupported
  | TimedOut

/**
 * `ok`: the user passed (with the token the client keeps, when one was saved); `failed`: the client
 * said so (Telegram's protocol reports a dismissed prompt as failed too); `cancelled`: no verdict came
 * (the client never answered, or a newer request took this one's place); `no-access`: the user has
 * not let the bot use biometrics.
 */
export type BiometryAuthResult =
  | { readonly kind: 'ok'; readonly token: string | null }
  | { readonly kind: 'failed' }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'no-access' }
  | { readonly kind: 'unavailable' }
  | Unsupported

export interface BiometryCapability {
  /** Bot API 7.2+. */
  readonly supported: boolean
  info(): Promise<BiometryInfoResult>
  /** Telegram's prompt, with the reason shown to the user (up to 128 characters). */
  requestAccess(reason: string): Promise<BiometryAccessResult>
  authenticate(reason: string): Promise<BiometryAuthResult>
}

/** The client refused with its error code. */
export interface StorageFailed {
  readonly kind: 'failed'
  readonly error: string
}

export type StorageResult<T> = { readonly kind: 'ok'; readonly value: T } | StorageFailed | Unsupported | TimedOut

/** String values by key on the user's device, per bot (Telegram's DeviceStorage or SecureStorage). */
export interface DeviceKeyStore {
  /** Bot API 9.0+. */
  readonly supported: boolean
  /** null when the key holds nothing. */
  get(key: string): Promise<StorageResult<string | null>>
  set(key: string, value: string): Promise<StorageResult<void>>
  remove(key: string): Promise<StorageResult<void>>
  clear(): Promise<StorageResult<void>>
}

/** Telegram for Android's class of the device, from its User-Agent. */
export type PerformanceClass = 'LOW' | 'AVERAGE' | 'HIGH'

export interface PlatformFeatures {
  readonly fullscreen: FullscreenCapability
  readonly insets: InsetsCapability
  readonly homeScreen: HomeScreenCapability
  readonly biometry: BiometryCapability
  /** The iOS Keychain / Android Keystore: for secrets such as tokens. */
  readonly secureStorage: DeviceKeyStore
  /** Plain storage on the device. */
  readonly deviceStorage: DeviceKeyStore
  /** null off Android or when the client does not say. */
  performanceClass(): PerformanceClass | null
  /** Animations and blur should be cut: the user asked for reduced motion, or the device is a LOW one. */
  reducedEffects(): boolean
}

const unsupported: Unsupported = { kind: 'unsupported' }
const unsupportedStore: DeviceKeyStore = {
  supported: false,
  get: () => Promise.resolve(unsupported),
  set: () => Promise.resolve(unsupported),
  remove: () => Promise.resolve(unsupported),
  clear: () => Promise.resolve(unsupported),
}

/** A host with none of these (the terminal, a page outside Telegram): every call answers unsupported. */
export const noPlatformFeatures: PlatformFeatures = {
  fullscreen: {
    supported: false,
    isFullscreen: () => false,
    request: () => Promise.resolve(unsupported),
    exit: () => {},
    onChange: () => () => {},
    onFailure: () => () => {},
  },
  insets: {
    supported: false,
    current: () => ({ safeArea: NO_INSETS, contentSafeArea: NO_INSETS }),
    onChange: () => () => {},
  },
  homeScreen: { supported: false, check: () => Promise.resolve('unsupported'), add: () => Promise.resolve(unsupported) },
  biometry: {
    supported: false,
    info: () => Promise.resolve(unsupported),
    requestAccess: () => Promise.resolve(unsupported),
    authenticate: () => Promise.resolve(unsupported),
  },
  secureStorage: unsupportedStore,
  deviceStorage: unsupportedStore,
  performanceClass: () => null,
  reducedEffects: () => false,
}
