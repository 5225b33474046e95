import { dottedAtLeast } from '../../core/domain/dotted-version.ts'
import {
  NO_INSETS,
  type BiometryAccessResult,
  type BiometryAuthResult,
  type BiometryCapability,
  type BiometryInfo,
  type BiometryInfoResult,
  type DeviceKeyStore,
  type FullscreenCapability,
  type FullscreenResult,
  type HomeScreenAddResult,
  type HomeScreenCapability,
  type HomeScreenStatus,
  type Insets,
  type InsetsCapability,
  type InsetsState,
  type PerformanceClass,
  type PlatformFeatures,
  type StorageResult,
} from '../../core/ports/platform-features.port.ts'
import { ask, nextRequestId, type TelegramBridge } from './telegram-bridge.ts'

/**
 * The lowest client version of each method used here, as Telegram's Mini Apps changelog
 * (core.telegram.org/bots/webapps, "Recent changes") and the @tma.js/bridge release table
 * (packages/bridge/src/methods/getReleaseVersion.ts) give them.
 */
export const PLATFORM_BIOMETRY_VERSION = '7.2'
/** web_app_request_fullscreen / _exit_fullscreen, web_app_request_safe_area / _content_safe_area, home screen. */
export const PLATFORM_FULLSCREEN_VERSION = '8.0'
export const PLATFORM_HOME_SCREEN_VERSION = '8.0'
/** web_app_secure_storage_* and web_app_device_storage_*. */
export const PLATFORM_DEVICE_STORAGE_VERSION = '9.0'

/** How long a request waits for the client's answer (ms). Prompts wait for the user. */
export const TELEGRAM_ANSWER_TIMEOUT_MS = 5_000
export const TELEGRAM_PROMPT_TIMEOUT_MS = 120_000

export interface TelegramFeaturesOptions {
  /** The client's Bot API version (tgWebAppVersion). */
  readonly version: string
  readonly bridge: TelegramBridge
  /** navigator.userAgent. */
  readonly userAgent?: string
  /** Whether the user asked for reduced motion (the media query prefers-reduced-motion). */
  readonly prefersReducedMotion?: () => boolean
  readonly answerTimeoutMs?: number
  readonly promptTimeoutMs?: number
}

const record = (data: unknown): Record<string, unknown> => (typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {})

const insetsOf = (data: unknown): Insets => {
  const d = record(data)
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0)
  return { top: n(d.top), bottom: n(d.bottom), left: n(d.left), right: n(d.right) }
}

/**
 * Telegram for Android appends `Telegram-Android/<app version> (<maker> <model>; Android <v>; SDK <n>; <class>)`
 * to its User-Agent, the class being LOW, AVERAGE or HIGH (core.telegram.org/bots/webapps,
 * "Additional data in User-Agent").
 */
export const performanceClassOf = (userAgent: string): PerformanceClass | null => {
  const match = /Telegram-Android(?:\/\S+)?\s*\(([^)]*)\)/.exec(userAgent)
  if (!match) return null
  for (const part of match[1]!.split(';').map((p) => p.trim())) {
    if (part === 'LOW' || part === 'AVERAGE' || part === 'HIGH') return part
  }
  return null
}

const biometryInfoOf = (data: unknown): BiometryInfo => {
  const d = record(data)
  const available = d.available === true
  const requested = available && d.access_requested === true
  return {
    available,
    type: available && (d.type === 'face' || d.type === 'finger') ? d.type : 'unknown',
    accessRequested: requested,
    accessGranted: requested && d.access_granted === true,
    deviceId: typeof d.device_id === 'string' ? d.device_id : '',
    tokenSaved: requested && d.token_saved === true,
  }
}

/** Telegram's DeviceStorage or SecureStorage: the same four requests under a prefix, each with a req_id. */
class TelegramKeyStore implements DeviceKeyStore {
  constructor(
    private readonly bridge: TelegramBridge,
    /** `device_storage` or `secure_storage`. */
    private readonly kind: 'device_storage' | 'secure_storage',
    readonly supported: boolean,
    private readonly timeoutMs: number,
  ) {}

  get(key: string): Promise<StorageResult<string | null>> {
    return this.request<string | null>('get_key', { key }, 'key_received', (d) => (typeof d.value === 'string' ? d.value : null))
  }

  set(key: string, value: string): Promise<StorageResult<void>> {
    return this.request<void>('save_key', { key, value }, 'key_saved', () => undefined)
  }

  /** Telegram's docs: saving null removes the key. */
  remove(key: string): Promise<StorageResult<void>> {
    return this.request<void>('save_key', { key, value: null }, 'key_saved', () => undefined)
  }

  clear(): Promise<StorageResult<void>> {
    return this.request<void>('clear', {}, 'cleared', () => undefined)
  }

  private request<T>(
    method: string,
    params: Record<string, unknown>,
    okEvent: string,
    read: (data: Record<string, unknown>) => T,
  ): Promise<StorageResult<T>> {
    if (!this.supported) return Promise.resolve({ kind: 'unsupported' })
    const reqId = nextRequestId()
    const mine = (data: unknown) => {
      const d = record(data)
      return d.req_id === reqId ? d : undefined
    }
    return ask<StorageResult<T>>(this.bridge, {
      method: `web_app_${this.kind}_${method}`,
      params: { req_id: reqId, ...params },
      answers: {
        [`${this.kind}_${okEvent}`]: (data) => {
          const d = mine(data)
          return d && { kind: 'ok', value: read(d) }
        },
        [`${this.kind}_failed`]: (data) => {
          const d = mine(data)
          return d && { kind: 'failed', error: typeof d.error === 'string' && d.error ? d.error : 'UNKNOWN_ERROR' }
        },
      },
      timeoutMs: this.timeoutMs,
      onTimeout: () => ({ kind: 'timeout' }),
      onNotPosted: () => ({ kind: 'unsupported' }),
    })
  }
}

/**
 * Telegram's 7.2–9.x features through its raw web-app messages (./telegram-bridge.ts). @twa-dev/sdk
 * 8.0.2 posts the same 8.0 methods (requestFullscreen → web_app_request_fullscreen, …), but it loads
 * after the first paint and has no 9.x storage at all; one path for every feature keeps them alike
 * and testable from the protocol. Each capability is gated on the client's version: an older client
 * is asked nothing.
 */
export class TelegramFeatures implements PlatformFeatures {
  readonly fullscreen: FullscreenCapability
  readonly insets: InsetsCapability
  readonly homeScreen: HomeScreenCapability
  readonly biometry: BiometryCapability
  readonly secureStorage: DeviceKeyStore
  readonly deviceStorage: DeviceKeyStore

  private fullscreenNow = false
  private insetsNow: InsetsState = { safeArea: NO_INSETS, contentSafeArea: NO_INSETS }
  private watching = false
  private readonly fullscreenListeners = new Set<(fullscreen: boolean) => void>()
  private readonly failureListeners = new Set<(error: string) => void>()
  private readonly insetsListeners = new Set<(insets: InsetsState) => void>()
  private authRequest: { cancel(): void } | null = null
  private readonly answerMs: number
  private readonly promptMs: number

  constructor(private readonly o: TelegramFeaturesOptions) {
    this.answerMs = o.answerTimeoutMs ?? TELEGRAM_ANSWER_TIMEOUT_MS
    this.promptMs = o.promptTimeoutMs ?? TELEGRAM_PROMPT_TIMEOUT_MS
    const at = (min: string) => dottedAtLeast(o.version, min)
    const features = this
    const fullscreenSupported = at(PLATFORM_FULLSCREEN_VERSION)
    this.fullscreen = {
      supported: fullscreenSupported,
      isFullscreen: () => (features.watch(), features.fullscreenNow),
      request: () => features.requestFullscreen(fullscreenSupported),
      exit: () => {
        if (fullscreenSupported) o.bridge.post('web_app_exit_fullscreen')
      },
      onChange: (listener) => features.listen(features.fullscreenListeners, listener),
      onFailure: (listener) => features.listen(features.failureListeners, listener),
    }
    this.insets = {
      supported: fullscreenSupported,
      current: () => (features.watch(), features.insetsNow),
      onChange: (listener) => features.listen(features.insetsListeners, listener),
    }
    const homeSupported = at(PLATFORM_HOME_SCREEN_VERSION)
    this.homeScreen = {
      supported: homeSupported,
      check: () => features.checkHomeScreen(homeSupported),
      add: () => features.addToHomeScreen(homeSupported),
    }
    const biometrySupported = at(PLATFORM_BIOMETRY_VERSION)
    this.biometry = {
      supported: biometrySupported,
      info: () => features.biometryInfo(biometrySupported),
      requestAccess: (reason) => features.requestBiometryAccess(biometrySupported, reason),
      authenticate: (reason) => features.authenticate(biometrySupported, reason),
    }
    const storageSupported = at(PLATFORM_DEVICE_STORAGE_VERSION)
    this.secureStorage = new TelegramKeyStore(o.bridge, 'secure_storage', storageSupported, this.answerMs)
    this.deviceStorage = new TelegramKeyStore(o.bridge, 'device_storage', storageSupported, this.answerMs)
  }

  performanceClass(): PerformanceClass | null {
    return performanceClassOf(this.o.userAgent ?? '')
  }

  reducedEffects(): boolean {
    let reduced = false
    try {
      reduced = this.o.prefersReducedMotion?.() === true
    } catch {
      reduced = false
    }
    return reduced || this.performanceClass() === 'LOW'
  }

  private listen<T>(set: Set<(v: T) => void>, listener: (v: T) => void): () => void {
    this.watch()
    set.add(listener)
    return () => void set.delete(listener)
  }

  /**
   * From the first use on a client with fullscreen: follows fullscreen_changed, fullscreen_failed
   * and both insets, and asks the client for the insets it has now (their answers may come late).
   */
  private watch(): void {
    if (this.watching || !dottedAtLeast(this.o.version, PLATFORM_FULLSCREEN_VERSION)) return
    this.watching = true
    const { bridge } = this.o
    bridge.on('fullscreen_changed', (data) => this.setFullscreen(record(data).is_fullscreen === true))
    bridge.on('fullscreen_failed', (data) => {
      const error = String(record(data).error ?? 'UNKNOWN_ERROR')
      // Telegram's telegram-web-app.js reads ALREADY_FULLSCREEN as being in fullscreen; so does this.
      if (error === 'ALREADY_FULLSCREEN') this.setFullscreen(true)
      for (const l of [...this.failureListeners]) l(error)
    })
    bridge.on('safe_area_changed', (data) => this.setInsets({ ...this.insetsNow, safeArea: insetsOf(data) }))
    bridge.on('content_safe_area_changed', (data) => this.setInsets({ ...this.insetsNow, contentSafeArea: insetsOf(data) }))
    bridge.post('web_app_request_safe_area')
    bridge.post('web_app_request_content_safe_area')
  }

  private setFullscreen(now: boolean): void {
    if (now === this.fullscreenNow) return
    this.fullscreenNow = now
    for (const l of [...this.fullscreenListeners]) l(now)
  }

  private setInsets(now: InsetsState): void {
    this.insetsNow = now
    for (const l of [...this.insetsListeners]) l(now)
  }

  private requestFullscreen(supported: boolean): Promise<FullscreenResult> {
    if (!supported) return Promise.resolve({ kind: 'unsupported' })
    this.watch()
    return ask<FullscreenResult>(this.o.bridge, {
      method: 'web_app_request_fullscreen',
      answers: {
        fullscreen_changed: (data) => (record(data).is_fullscreen === true ? { kind: 'fullscreen' } : undefined),
        fullscreen_failed: (data) => {
          const error = String(record(data).error ?? 'UNKNOWN_ERROR')
          return error === 'ALREADY_FULLSCREEN' ? { kind: 'fullscreen' } : { kind: 'failed', error }
        },
      },
      timeoutMs: this.answerMs,
      onTimeout: () => ({ kind: 'timeout' }),
      onNotPosted: () => ({ kind: 'unsupported' }),
    })
  }

  private checkHomeScreen(supported: boolean): Promise<HomeScreenStatus> {
    if (!supported) return Promise.resolve('unsupported')
    return ask<HomeScreenStatus>(this.o.bridge, {
      method: 'web_app_check_home_screen',
      answers: {
        home_screen_checked: (data) => {
          const status = record(data).status
          return status === 'unsupported' || status === 'added' || status === 'missed' ? status : 'unknown'
        },
      },
      timeoutMs: this.answerMs,
      onTimeout: () => 'unknown',
      onNotPosted: () => 'unsupported',
    })
  }

  /** Telegram's docs: a client that cannot tell whether the icon was added may send nothing; that reads `unknown`. */
  private addToHomeScreen(supported: boolean): Promise<HomeScreenAddResult> {
    if (!supported) return Promise.resolve({ kind: 'unsupported' })
    return ask<HomeScreenAddResult>(this.o.bridge, {
      method: 'web_app_add_to_home_screen',
      answers: {
        home_screen_added: () => ({ kind: 'added' }),
        home_screen_failed: () => ({ kind: 'declined' }),
      },
      timeoutMs: this.promptMs,
      onTimeout: () => ({ kind: 'unknown' }),
      onNotPosted: () => ({ kind: 'unsupported' }),
    })
  }

  private biometryInfo(supported: boolean): Promise<BiometryInfoResult> {
    if (!supported) return Promise.resolve({ kind: 'unsupported' })
    return ask<BiometryInfoResult>(this.o.bridge, {
      method: 'web_app_biometry_get_info',
      answers: { biometry_info_received: (data) => ({ kind: 'info', info: biometryInfoOf(data) }) },
      timeoutMs: this.answerMs,
      onTimeout: () => ({ kind: 'timeout' }),
      onNotPosted: () => ({ kind: 'unsupported' }),
    })
  }

  /** The client answers web_app_biometry_request_access with biometry_info_received (its new settings). */
  private async requestBiometryAccess(supported: boolean, reason: string): Promise<BiometryAccessResult> {
    const known = await this.biometryInfo(supported)
    if (known.kind !== 'info') return known
    if (!known.info.available) return { kind: 'unavailable' }
    if (known.info.accessGranted) return { kind: 'granted' }
    return ask<BiometryAccessResult>(this.o.bridge, {
      method: 'web_app_biometry_request_access',
      params: { reason: reason.slice(0, 128) },
      answers: {
        biometry_info_received: (data) => {
          const info = biometryInfoOf(data)
          return !info.available ? { kind: 'unavailable' } : info.accessGranted ? { kind: 'granted' } : { kind: 'denied' }
        },
      },
      timeoutMs: this.promptMs,
      onTimeout: () => ({ kind: 'timeout' }),
      onNotPosted: () => ({ kind: 'unsupported' }),
    })
  }

  private async authenticate(supported: boolean, reason: string): Promise<BiometryAuthResult> {
    const known = await this.biometryInfo(supported)
    if (known.kind === 'unsupported') return known
    if (known.kind === 'timeout') return { kind: 'cancelled' }
    if (!known.info.available) return { kind: 'unavailable' }
    if (!known.info.accessGranted) return { kind: 'no-access' }
    // A newer authentication replaces one still waiting: the older one ends without a verdict.
    this.authRequest?.cancel()
    let cancel: () => void = () => {}
    const cancelled = new Promise<BiometryAuthResult>((resolve) => (cancel = () => resolve({ kind: 'cancelled' })))
    const request = { cancel }
    this.authRequest = request
    const answer = ask<BiometryAuthResult>(this.o.bridge, {
      method: 'web_app_biometry_request_auth',
      params: { reason: reason.slice(0, 128) },
      answers: {
        biometry_auth_requested: (data) => {
          const d = record(data)
          if (d.status === 'authorized') return { kind: 'ok', token: typeof d.token === 'string' && d.token !== '' ? d.token : null }
          return { kind: 'failed' }
        },
      },
      timeoutMs: this.promptMs,
      onTimeout: () => ({ kind: 'cancelled' }),
      onNotPosted: () => ({ kind: 'unsupported' }),
    })
    const result = await Promise.race([answer, cancelled])
    if (this.authRequest === request) this.authRequest = null
    return result
  }
}
