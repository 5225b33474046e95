import type { HapticKind, LaunchData, Platform, PlatformFeatures, ShareOutcome as PlatformShareOutcome } from '../../../core/index.ts'
import { noPlatformFeatures } from '../../../core/ports/platform-features.port.ts'

export const launchData = (overrides: Partial<LaunchData> = {}): LaunchData => ({
  initData: 'query_id=AAE&user=%7B%22id%22%3A42%7D&hash=abc',
  userId: '42',
  languageCode: 'en',
  startParam: null,
  version: '8.0',
  platform: 'ios',
  ...overrides,
})

export type ShareOutcome = 'shared' | 'declined' | 'refused' | 'throws'

/** The host platform, recording what the app asked of it. */
export class FakePlatform implements Platform {
  readonly haptics: HapticKind[] = []
  readonly openedLinks: string[] = []
  readonly openedPlatformLinks: string[] = []
  readonly redirects: string[] = []
  readonly sharedMessages: string[] = []
  closes = 0
  reloads = 0
  backButton: (() => void) | null = null
  shareOutcome: ShareOutcome = 'shared'
  private readonly visibilityListeners = new Set<(visible: boolean) => void>()
  /** None of the 7.2–9.x features unless a test gives some: the fake claims nothing it does not do. */
  featureSet: PlatformFeatures = noPlatformFeatures

  features(): Promise<PlatformFeatures> {
    return Promise.resolve(this.featureSet)
  }

  constructor(private data: LaunchData | null = launchData()) {}

  launch(): LaunchData | null {
    return this.data
  }

  setLaunch(data: LaunchData | null): void {
    this.data = data
  }

  setup(): void {}

  showBackButton(onPress: () => void): void {
    this.backButton = onPress
  }

  hideBackButton(): void {
    this.backButton = null
  }

  haptic(kind: HapticKind): void {
    this.haptics.push(kind)
  }

  openLink(url: string): void {
    this.openedLinks.push(url)
  }

  openPlatformLink(url: string): void {
    this.openedPlatformLinks.push(url)
  }

  /** How often the app asked to let the bot write, and what the user answers. */
  writeAccessRequests = 0
  writeAccessAnswer = true

  requestWriteAccess(): Promise<boolean> {
    this.writeAccessRequests++
    return Promise.resolve(this.writeAccessAnswer)
  }

  shareMessage(inlineMessageId: string): Promise<PlatformShareOutcome> {
    this.sharedMessages.push(inlineMessageId)
    if (this.shareOutcome === 'throws') return Promise.reject(new Error('WebAppMethodUnsupported'))
    return Promise.resolve(this.shareOutcome === 'shared' ? 'sent' : this.shareOutcome === 'declined' ? 'declined' : 'failed')
  }

  close(): void {
    this.closes++
  }

  reload(): void {
    this.reloads++
  }

  redirect(url: string): void {
    this.redirects.push(url)
  }

  onVisibilityChange(listener: (visible: boolean) => void): () => void {
    this.visibilityListeners.add(listener)
    return () => this.visibilityListeners.delete(listener)
  }

  setVisible(visible: boolean): void {
    for (const l of this.visibilityListeners) l(visible)
  }
}
