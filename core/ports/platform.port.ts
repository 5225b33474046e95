import type { PlatformFeatures } from './platform-features.port.ts'

export type * from './platform-features.port.ts'

/** What the host platform launched the app with. */
export interface LaunchData {
  /** The raw, signed init data string, exactly as received. */
  readonly initData: string
  readonly userId: string | null
  readonly languageCode: string
  readonly startParam: string | null
  readonly version: string
  readonly platform: string
  /** initData's `user.allows_write_to_pm`: the user lets the bot write to them (absent: not said). */
  readonly allowsWriteToPm?: boolean
}

export type HapticKind = 'error' | 'success' | 'warning' | 'light' | 'medium' | 'selection'

/** The host messaging platform (Telegram): launch data and the client's capabilities. */
/** How a native share ended (Telegram's prepared_message_sent, or prepared_message_failed and its error). */
export type ShareOutcome = 'sent' | 'declined' | 'failed'

export interface Platform {
  /** The launch data, or null when the app runs outside the platform. */
  launch(): LaunchData | null
  /** Start-up settings (spec §1): ready, full height, no vertical swipes, locked orientation, colours. */
  setup(colors: { readonly background: string; readonly header: string }): void
  showBackButton(onPress: () => void): void
  hideBackButton(): void
  haptic(kind: HapticKind): void
  openLink(url: string): void
  openPlatformLink(url: string): void
  /**
   * Native share of a prepared message (client 8.0+): 'sent'; 'declined' when the user closed
   * Telegram's share screen (its USER_DECLINED); 'failed' for any other error or a client without it.
   */
  shareMessage(inlineMessageId: string): Promise<ShareOutcome>
  /**
   * Asks the user to let the bot write to them (client 6.9+: Telegram's own prompt). Resolves true
   * when they allowed it, false when they declined or the client cannot ask.
   */
  requestWriteAccess(): Promise<boolean>
  close(): void
  reload(): void
  /** Leaves the app for a URL (the product's bot, when opened outside the platform). */
  redirect(url: string): void
  /** Calls back with true when the app becomes visible again, false when hidden. Returns an unsubscribe. */
  onVisibilityChange(listener: (visible: boolean) => void): () => void
  /**
   * Bot API 7.2–9.x: fullscreen and insets, the home screen, biometrics, device storage, the device's
   * speed. Each says whether this client has it; an older client answers unsupported and is asked nothing.
   * Loaded when first asked for (the same object every time): their code is not in the entry, which
   * paints the dashboard without them; once loaded they ask the client for its current insets.
   */
  features(): Promise<PlatformFeatures>
}
