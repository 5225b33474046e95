import type { Platform } from '../../core/index.ts'
import type { AppState } from '../state/app-state.ts'
import type { UiConfig } from './contexts.ts'

/** The app the composition root made, as the React tree takes it. */
export interface StartedApp {
  readonly app: AppState
  readonly platform: Platform
  readonly config: UiConfig
}

export interface ComposedApp extends StartedApp {
  /** Starts fetching the dashboard (the page the app opens on) and starts the app. */
  start(): StartedApp
}
