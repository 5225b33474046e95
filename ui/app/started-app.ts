import type { Platform } from '../../core/index.ts'
import type { PlatformFeaturesLoading } from '../features/platform/platform-features-context.ts'
import type { AppState } from './app-state.ts'
import type { UiConfig } from '../lib/host-contexts.ts'

/** The app the composition root made, as the React tree takes it. */
export interface StartedApp {
  readonly app: AppState
  readonly platform: Platform
  readonly config: UiConfig
  /** The platform features' view model, made after the first paint (fullscreen, insets, the home screen, reduced effects). */
  readonly platformFeatures?: PlatformFeaturesLoading
}

export interface ComposedApp extends StartedApp {
  /** Starts fetching the dashboard (the page the app opens on) and starts the app. */
  start(): StartedApp
}
