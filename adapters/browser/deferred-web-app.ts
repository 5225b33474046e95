import type { LaunchParams } from './launch-params.ts'
import type { TelegramWebApp, TelegramWebAppEvent } from './telegram-platform.ts'

type Call = (webApp: TelegramWebApp) => void

/**
 * Telegram's WebApp before and after @twa-dev/sdk has loaded. The SDK is downloaded after the first
 * screen has painted; until then this object answers what the launch parameters say (init data,
 * version, platform) and keeps every other call, in order, to replay on the SDK's object once it is
 * attached: set-up, the back button and its handler, links, share, close, event subscriptions. A
 * link the user tapped or a back button the app showed is therefore not lost, only late.
 * The one exception is haptic feedback: a vibration is only meaningful at the moment of the touch,
 * so one asked for before the SDK is there is dropped rather than played late.
 * After `attach`, every call goes straight to the SDK's object.
 */
export class DeferredWebApp implements TelegramWebApp {
  private real: TelegramWebApp | null = null
  private queue: Call[] = []

  readonly initData: string
  readonly initDataUnsafe: TelegramWebApp['initDataUnsafe']
  readonly version: string
  readonly platform: string

  constructor(launch: LaunchParams) {
    this.initData = launch.initData
    const startParam = launch.initDataUnsafe.start_param ?? launch.startParam ?? undefined
    this.initDataUnsafe = { ...launch.initDataUnsafe, ...(startParam ? { start_param: startParam } : {}) }
    this.version = launch.version
    this.platform = launch.platform
  }

  /** Whether the SDK's object is attached. */
  get loaded(): boolean {
    return this.real !== null
  }

  /** The SDK's object arrived: the kept calls run on it, in the order they were made. */
  attach(webApp: TelegramWebApp): void {
    if (this.real) return
    this.real = webApp
    const pending = this.queue
    this.queue = []
    for (const call of pending) {
      try {
        call(webApp)
      } catch {
        // One refused call (an older client) must not stop the ones after it.
      }
    }
  }

  /** Unknown until the SDK is there; the platform treats that as active. */
  get isActive(): boolean | undefined {
    return this.real?.isActive
  }

  private run(call: Call): void {
    if (this.real) call(this.real)
    else this.queue.push(call)
  }

  ready(): void {
    this.run((w) => w.ready())
  }
  expand(): void {
    this.run((w) => w.expand())
  }
  close(): void {
    this.run((w) => w.close())
  }
  disableVerticalSwipes(): void {
    this.run((w) => w.disableVerticalSwipes())
  }
  lockOrientation(): void {
    this.run((w) => w.lockOrientation())
  }
  setBackgroundColor(color: `#${string}`): void {
    this.run((w) => w.setBackgroundColor(color))
  }
  setHeaderColor(color: `#${string}`): void {
    this.run((w) => w.setHeaderColor(color))
  }
  openLink(url: string): void {
    this.run((w) => w.openLink(url))
  }
  openTelegramLink(url: string): void {
    this.run((w) => w.openTelegramLink(url))
  }
  shareMessage(id: string, callback?: (sent: boolean) => unknown): void {
    this.run((w) => w.shareMessage(id, callback))
  }
  requestWriteAccess(callback?: (granted: boolean) => unknown): void {
    this.run((w) => w.requestWriteAccess(callback))
  }
  onEvent(event: TelegramWebAppEvent, callback: (data: { readonly error?: string } | void) => void): void {
    this.run((w) => w.onEvent(event, callback))
  }
  offEvent(event: TelegramWebAppEvent, callback: (data: { readonly error?: string } | void) => void): void {
    this.run((w) => w.offEvent(event, callback))
  }

  readonly BackButton: TelegramWebApp['BackButton'] = {
    show: () => this.run((w) => w.BackButton.show()),
    hide: () => this.run((w) => w.BackButton.hide()),
    onClick: (callback) => this.run((w) => w.BackButton.onClick(callback)),
    offClick: (callback) => this.run((w) => w.BackButton.offClick(callback)),
  }

  readonly HapticFeedback: TelegramWebApp['HapticFeedback'] = {
    impactOccurred: (style) => this.real?.HapticFeedback.impactOccurred(style),
    notificationOccurred: (type) => this.real?.HapticFeedback.notificationOccurred(type),
    selectionChanged: () => this.real?.HapticFeedback.selectionChanged(),
  }
}
