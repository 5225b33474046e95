import { PLATFORM_NATIVE_SHARE_VERSION, PLATFORM_WRITE_ACCESS_VERSION } from '../../core/domain/constants.ts'
import { linkOpening, versionAtLeast } from '../../core/domain/platform-version.ts'
import type { HapticKind, LaunchData, Platform, PlatformFeatures, ShareOutcome } from '../../core/ports/platform.port.ts'

/** Client versions that unlock the calls below (Telegram Bot API changelog; the SDK checks the same). */
export const PLATFORM_HAPTICS_VERSION = '6.1'
export const PLATFORM_VERTICAL_SWIPES_VERSION = '7.7'
export const PLATFORM_ORIENTATION_LOCK_VERSION = '8.0'

/** The language when Telegram does not say. */
export const DEFAULT_LANGUAGE = 'en'

/**
 * The part of Telegram's WebApp object (@twa-dev/sdk) the platform uses. The SDK's object fits it;
 * so does a hand-written fake.
 */
/** The SDK's events the app listens to: the app in and out of view, and a native share's failure with its error. */
export type TelegramWebAppEvent = 'activated' | 'deactivated' | 'shareMessageFailed'

export interface TelegramWebApp {
  readonly initData: string
  readonly initDataUnsafe: {
    readonly user?: { readonly id: number; readonly language_code?: string; readonly allows_write_to_pm?: boolean }
    readonly start_param?: string
  }
  readonly version: string
  readonly platform: string
  readonly isActive?: boolean
  ready(): void
  expand(): void
  close(): void
  disableVerticalSwipes(): void
  lockOrientation(): void
  setBackgroundColor(color: `#${string}`): void
  setHeaderColor(color: `#${string}`): void
  openLink(url: string): void
  openTelegramLink(url: string): void
  shareMessage(id: string, callback?: (sent: boolean) => unknown): void
  requestWriteAccess(callback?: (granted: boolean) => unknown): void
  onEvent(event: TelegramWebAppEvent, callback: (data: { readonly error?: string } | void) => void): void
  offEvent(event: TelegramWebAppEvent, callback: (data: { readonly error?: string } | void) => void): void
  readonly BackButton: {
    show(): unknown
    hide(): unknown
    onClick(callback: () => void): unknown
    offClick(callback: () => void): unknown
  }
  readonly HapticFeedback: {
    impactOccurred(style: 'light' | 'medium'): unknown
    notificationOccurred(type: 'error' | 'success' | 'warning'): unknown
    selectionChanged(): unknown
  }
}

/** The page around the app: navigation and visibility. `window.location` and `document` by default. */
export interface PageHost {
  readonly location: { reload(): void; replace(url: string): void; readonly search?: string }
  readonly document: Pick<Document, 'addEventListener' | 'removeEventListener' | 'visibilityState'>
}

/** Platform calls are cosmetic or best-effort: a client that refuses one must not stop the app. */
const quietly = (call: () => void): void => {
  try {
    call()
  } catch {
    // The SDK throws on what the client does not support; there is nothing to recover.
  }
}

/** The 7.2–9.x features over this window, for a client of `version`: their code loads on the first call (a chunk of its own). */
const browserFeatures = async (version: string): Promise<PlatformFeatures> => {
  const [{ TelegramFeatures }, { windowBridge }] = await Promise.all([import('./telegram-features.ts'), import('./telegram-bridge.ts')])
  return new TelegramFeatures({
    version,
    bridge: windowBridge(),
    userAgent: globalThis.navigator?.userAgent ?? '',
    prefersReducedMotion: () => globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true,
  })
}

/** The host platform: Telegram, through @twa-dev/sdk. */
export class TelegramPlatform implements Platform {
  private backHandler: (() => void) | null = null
  /** Bot API 7.2–9.x, over Telegram's raw messages (./telegram-features.ts): loaded, and attached, on the first call. */
  private loaded: Promise<PlatformFeatures> | null = null

  constructor(
    private readonly webApp: TelegramWebApp,
    private readonly page: PageHost = { location: globalThis.location, document: globalThis.document },
    private readonly given?: PlatformFeatures,
  ) {}

  features(): Promise<PlatformFeatures> {
    this.loaded ??= this.given ? Promise.resolve(this.given) : browserFeatures(this.webApp.version)
    return this.loaded
  }

  launch(): LaunchData | null {
    const { initData, initDataUnsafe } = this.webApp
    if (!initData) return null
    const user = initDataUnsafe.user
    return {
      initData,
      userId: user ? String(user.id) : null,
      languageCode: user?.language_code || DEFAULT_LANGUAGE,
      startParam: initDataUnsafe.start_param || this.queryStartParam(),
      version: this.webApp.version,
      platform: this.webApp.platform,
      ...(typeof user?.allows_write_to_pm === 'boolean' ? { allowsWriteToPm: user.allows_write_to_pm } : {}),
    }
  }

  /**
   * The start parameter in the page's query (`?tgWebAppStartParam=`), for a launch whose init data
   * has none: a bot's web_app button carries a referral code that way (docs/api.md). The core
   * parses it like any start parameter.
   */
  private queryStartParam(): string | null {
    const search = this.page.location?.search
    return (search && new URLSearchParams(search).get('tgWebAppStartParam')) || null
  }

  setup(colors: { readonly background: string; readonly header: string }): void {
    quietly(() => this.webApp.ready())
    quietly(() => this.webApp.expand())
    if (this.supports(PLATFORM_VERTICAL_SWIPES_VERSION)) quietly(() => this.webApp.disableVerticalSwipes())
    if (this.supports(PLATFORM_ORIENTATION_LOCK_VERSION)) quietly(() => this.webApp.lockOrientation())
    quietly(() => this.webApp.setBackgroundColor(colors.background as `#${string}`))
    quietly(() => this.webApp.setHeaderColor(colors.header as `#${string}`))
  }

  showBackButton(onPress: () => void): void {
    this.dropBackHandler()
    const handler = () => onPress()
    this.backHandler = handler
    quietly(() => this.webApp.BackButton.onClick(handler))
    quietly(() => this.webApp.BackButton.show())
  }

  hideBackButton(): void {
    this.dropBackHandler()
    quietly(() => this.webApp.BackButton.hide())
  }

  haptic(kind: HapticKind): void {
    if (!this.supports(PLATFORM_HAPTICS_VERSION)) return
    const feedback = this.webApp.HapticFeedback
    quietly(() => {
      switch (kind) {
        case 'error':
        case 'success':
        case 'warning':
          feedback.notificationOccurred(kind)
          return
        case 'light':
        case 'medium':
          feedback.impactOccurred(kind)
          return
        case 'selection':
          feedback.selectionChanged()
      }
    })
  }

  openLink(url: string): void {
    switch (linkOpening(url, this.webApp.version)) {
      case 'platform-native':
        quietly(() => this.webApp.openTelegramLink(url))
        return
      case 'external':
        quietly(() => this.webApp.openLink(url))
        return
      case 'rejected':
        return
    }
  }

  /** The same rule as openLink: t.me links open natively where the client can, others outside. */
  openPlatformLink(url: string): void {
    this.openLink(url)
  }

  shareMessage(inlineMessageId: string): Promise<ShareOutcome> {
    if (!this.supports(PLATFORM_NATIVE_SHARE_VERSION)) return Promise.resolve('failed')
    return new Promise((resolve) => {
      // prepared_message_failed carries why: USER_DECLINED when the user closed the share screen. The
      // SDK calls back (false) first and then emits shareMessageFailed with the error, in the same turn.
      let error: string | undefined
      const onFailed = (data: { readonly error?: string } | void) => void (error = data ? data.error : undefined)
      const settle = (outcome: ShareOutcome) => {
        quietly(() => this.webApp.offEvent('shareMessageFailed', onFailed))
        resolve(outcome)
      }
      try {
        this.webApp.onEvent('shareMessageFailed', onFailed)
        this.webApp.shareMessage(inlineMessageId, (sent) =>
          queueMicrotask(() => settle(sent === true ? 'sent' : error === 'USER_DECLINED' ? 'declined' : 'failed')),
        )
      } catch {
        settle('failed')
      }
    })
  }

  requestWriteAccess(): Promise<boolean> {
    if (!this.supports(PLATFORM_WRITE_ACCESS_VERSION)) return Promise.resolve(false)
    return new Promise((resolve) => {
      try {
        this.webApp.requestWriteAccess((granted) => resolve(granted === true))
      } catch {
        resolve(false)
      }
    })
  }

  close(): void {
    quietly(() => this.webApp.close())
  }

  reload(): void {
    this.page.location.reload()
  }

  redirect(url: string): void {
    this.page.location.replace(url)
  }

  onVisibilityChange(listener: (visible: boolean) => void): () => void {
    // Telegram's events and the document's often report the same change; tell it once.
    let visible = this.page.document.visibilityState !== 'hidden' && this.webApp.isActive !== false
    const report = (now: boolean) => {
      if (now === visible) return
      visible = now
      listener(now)
    }
    const onActivated = () => report(true)
    const onDeactivated = () => report(false)
    const onDocument = () => report(this.page.document.visibilityState !== 'hidden')
    quietly(() => this.webApp.onEvent('activated', onActivated))
    quietly(() => this.webApp.onEvent('deactivated', onDeactivated))
    this.page.document.addEventListener('visibilitychange', onDocument)
    return () => {
      quietly(() => this.webApp.offEvent('activated', onActivated))
      quietly(() => this.webApp.offEvent('deactivated', onDeactivated))
      this.page.document.removeEventListener('visibilitychange', onDocument)
    }
  }

  private supports(min: string): boolean {
    return versionAtLeast(this.webApp.version, min)
  }

  private dropBackHandler(): void {
    const previous = this.backHandler
    this.backHandler = null
    if (previous) quietly(() => this.webApp.BackButton.offClick(previous))
  }
}
