import { makeAutoObservable, observableRef, runInAction, when } from 'mobx'
import type { InsetsState, KeyValueStore, Platform, PlatformFeatures } from '../../../core/index.ts'

/** What this feature keeps in the app's key-value store (wiped with the rest when another user signs in). */
export const PLATFORM_STORAGE_KEYS = {
  /** '1' while the user wants the app in fullscreen: the next open asks for it again. */
  fullscreen: 'fullscreen',
  /** Set once the home-screen offer was answered (Add or Not now): it is never shown again. */
  homeScreenOffered: 'homeScreenOffered',
} as const

/** How long the "fullscreen is not available" line stays (ms). */
export const FULLSCREEN_FAILED_MS = 4_000

export interface PlatformFeaturesDeps {
  readonly features: PlatformFeatures
  readonly storage: KeyValueStore
  /** Whether the user has an active bond now (observable: the offer waits for the first one). */
  readonly hasActiveBond: () => boolean
  readonly timers?: { setTimeout(fn: () => void, ms: number): unknown; clearTimeout(id: unknown): void }
}

/**
 * The Telegram client's fullscreen, insets, home-screen shortcut and speed, as the app's layout uses
 * them (Platform.features()):
 * - fullscreen: a toggle where the client has it (Bot API 8.0+), remembered, asked for again on the
 *   next open; a refusal (`fullscreen_failed`) turns it back off with a short message;
 * - insets: the device's safe area and Telegram's content safe area, as they are now and as each
 *   change (a late first answer, entering or leaving fullscreen) arrives;
 * - the home screen: offered once, after the user's first active bond, where the client can add the
 *   app and it is not added yet; Add or Not now ends the offer for good;
 * - reduced effects: a LOW Android device or a user who asked for reduced motion gets no animations.
 */
export class PlatformFeaturesState {
  /** In fullscreen, as the client last said. */
  fullscreen = false
  /** A fullscreen request is out: the toggle reads on until the client answers. */
  requesting = false
  /** The client refused fullscreen: the short message is on screen. */
  fullscreenFailed = false
  insets: InsetsState
  /** The home-screen offer is on screen. */
  homeScreenOffered = false
  readonly reducedEffects: boolean
  private failedTimer: unknown = null
  private readonly stops: Array<() => void> = []

  constructor(private readonly deps: PlatformFeaturesDeps) {
    const { features } = deps
    this.fullscreen = features.fullscreen.supported && features.fullscreen.isFullscreen()
    this.insets = features.insets.current()
    this.reducedEffects = features.reducedEffects()
    makeAutoObservable<this, 'deps' | 'failedTimer' | 'stops'>(this, { deps: false, failedTimer: false, stops: false, insets: observableRef })
  }

  /** The client can show the app in fullscreen (8.0+): the toggle is there. */
  get fullscreenSupported(): boolean {
    return this.deps.features.fullscreen.supported
  }

  /** What the toggle shows: on in fullscreen and while asking for it. */
  get fullscreenOn(): boolean {
    return this.fullscreen || this.requesting
  }

  /** Follows the client, asks again for the fullscreen the user left on, and waits for the first active bond. Returns a stop. */
  start(): () => void {
    const { features, storage } = this.deps
    this.stops.push(
      features.insets.onChange((insets) => runInAction(() => (this.insets = insets))),
      features.fullscreen.onChange((fullscreen) => this.fullscreenChanged(fullscreen)),
      features.fullscreen.onFailure((error) => this.fullscreenRefused(error)),
    )
    if (this.fullscreenSupported && !this.fullscreen && storage.get(PLATFORM_STORAGE_KEYS.fullscreen) === '1') void this.enterFullscreen()
    if (features.homeScreen.supported && storage.get(PLATFORM_STORAGE_KEYS.homeScreenOffered) === null) {
      const first = when(() => this.deps.hasActiveBond())
      this.stops.push(() => first.cancel())
      first.then(() => this.offerHomeScreen()).catch(() => undefined)
    }
    return () => this.stop()
  }

  stop(): void {
    for (const stop of this.stops.splice(0)) stop()
    this.clearFailedTimer()
  }

  toggleFullscreen(): void {
    if (!this.fullscreenSupported || this.requesting) return
    if (this.fullscreen) {
      this.deps.storage.remove(PLATFORM_STORAGE_KEYS.fullscreen)
      this.deps.features.fullscreen.exit()
      return
    }
    this.deps.storage.set(PLATFORM_STORAGE_KEYS.fullscreen, '1')
    void this.enterFullscreen()
  }

  async addToHomeScreen(): Promise<void> {
    this.answerOffer()
    await this.deps.features.homeScreen.add()
  }

  declineHomeScreen(): void {
    this.answerOffer()
  }

  dismissFullscreenFailed(): void {
    this.clearFailedTimer()
    this.fullscreenFailed = false
  }

  private async enterFullscreen(): Promise<void> {
    this.requesting = true
    const result = await this.deps.features.fullscreen.request()
    runInAction(() => {
      this.requesting = false
      if (result.kind === 'fullscreen') this.fullscreen = true
      else if (result.kind === 'failed' || result.kind === 'timeout') this.fullscreenRefused(result.kind === 'failed' ? result.error : 'TIMEOUT')
    })
  }

  private fullscreenChanged(fullscreen: boolean): void {
    this.fullscreen = fullscreen
    // Left through Telegram's own controls: the next open stays as the user left it.
    if (!fullscreen) this.deps.storage.remove(PLATFORM_STORAGE_KEYS.fullscreen)
  }

  /** The client said no (fullscreen_failed, or no answer): the toggle goes back off, with a short message. */
  private fullscreenRefused(error: string): void {
    if (error === 'ALREADY_FULLSCREEN') return
    this.requesting = false
    this.fullscreen = false
    this.deps.storage.remove(PLATFORM_STORAGE_KEYS.fullscreen)
    this.fullscreenFailed = true
    this.clearFailedTimer()
    const timers = this.deps.timers ?? globalThis
    this.failedTimer = timers.setTimeout(() => runInAction(() => (this.fullscreenFailed = false)), FULLSCREEN_FAILED_MS)
  }

  private clearFailedTimer(): void {
    if (this.failedTimer !== null) (this.deps.timers ?? globalThis).clearTimeout(this.failedTimer as ReturnType<typeof setTimeout>)
    this.failedTimer = null
  }

  /** Offered once where the client can add the app and it is not there yet. */
  private async offerHomeScreen(): Promise<void> {
    const status = await this.deps.features.homeScreen.check()
    if (status !== 'missed' && status !== 'unknown') return
    if (this.deps.storage.get(PLATFORM_STORAGE_KEYS.homeScreenOffered) !== null) return
    runInAction(() => (this.homeScreenOffered = true))
  }

  private answerOffer(): void {
    this.deps.storage.set(PLATFORM_STORAGE_KEYS.homeScreenOffered, '1')
    this.homeScreenOffered = false
  }
}

/**
 * The view model over the platform's features, started (the composition root calls this once the
 * first screen has painted, so this module and the features load then). Null when they cannot load:
 * the app goes on without them.
 */
export const startPlatformFeatures = async (deps: Omit<PlatformFeaturesDeps, 'features'> & { readonly platform: Platform }): Promise<PlatformFeaturesState | null> => {
  try {
    const state = new PlatformFeaturesState({ ...deps, features: await deps.platform.features() })
    state.start()
    return state
  } catch (error) {
    console.error('AXIOM: the platform features did not load', error)
    return null
  }
}
