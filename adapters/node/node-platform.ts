import { join } from 'node:path'
import { PLATFORM_DEFAULT_VERSION, type HapticKind, type LaunchData, type Platform, type ShareOutcome } from '../../core/index.ts'
import { noPlatformFeatures } from '../../core/ports/platform-features.port.ts'
import { JsonFile } from './json-file.ts'

export const LAUNCH_FILE_NAME = 'launch.json'

/** What `axiom login` stores: the init data the CLI "launches" with, as Telegram would hand it to the app. */
export interface StoredLaunch {
  readonly initData: string
  readonly userId: string
  readonly startParam: string | null
}

/** The launch data file in AXIOM_HOME (owner-only, like the session file: init data is a credential). */
export class LaunchFile {
  private readonly file: JsonFile

  constructor(dir: string) {
    this.file = new JsonFile(join(dir, LAUNCH_FILE_NAME))
  }

  read(): StoredLaunch | null {
    const v = this.file.read()
    if (!v.initData || !v.userId) return null
    return { initData: v.initData, userId: v.userId, startParam: v.startParam || null }
  }

  write(launch: StoredLaunch): void {
    this.file.write({ initData: launch.initData, userId: launch.userId, ...(launch.startParam ? { startParam: launch.startParam } : {}) })
  }

  clear(): void {
    this.file.write({})
  }
}

/**
 * The host platform for a terminal: the launch data is the init data saved by `axiom login`;
 * there is no window to set up, close or reload, no haptics, and the terminal never hides.
 * Links are printed. `reload` is remembered so that the CLI can re-run sign-in, which is what a
 * reload does in the mini app.
 */
export class NodePlatform implements Platform {
  reloadRequested = false

  constructor(
    private readonly launchFile: LaunchFile,
    private readonly print: (line: string) => void,
  ) {}

  launch(): LaunchData | null {
    const stored = this.launchFile.read()
    if (!stored) return null
    return {
      initData: stored.initData,
      userId: stored.userId,
      languageCode: 'en',
      startParam: stored.startParam,
      version: PLATFORM_DEFAULT_VERSION,
      platform: 'cli',
    }
  }

  setup(): void {}
  showBackButton(): void {}
  hideBackButton(): void {}
  haptic(_kind: HapticKind): void {}
  openLink(url: string): void {
    this.print(`Open: ${url}`)
  }
  openPlatformLink(url: string): void {
    this.print(`Open: ${url}`)
  }
  shareMessage(): Promise<ShareOutcome> {
    return Promise.resolve('failed')
  }
  /** A terminal has no Telegram prompt to show. */
  requestWriteAccess(): Promise<boolean> {
    return Promise.resolve(false)
  }
  close(): void {}
  reload(): void {
    this.reloadRequested = true
  }
  redirect(url: string): void {
    this.print(`Open: ${url}`)
  }
  onVisibilityChange(): () => void {
    return () => {}
  }
  /** A terminal has no fullscreen, home screen, biometrics or device storage. */
  features = () => Promise.resolve(noPlatformFeatures)
}
