import { createContext, useContext } from 'react'
import type { PlatformFeaturesState } from './platform-features-state.ts'

/**
 * The platform features' view model (./platform-features-state.ts). The composition root makes it
 * after the first paint, with the platform's lazily loaded features, so neither its code nor theirs is
 * in the entry: the context holds the promise of it. It resolves with null where the features could
 * not load, and the context is null where nothing gives it (a part of the app rendered alone).
 */
export type PlatformFeaturesLoading = Promise<PlatformFeaturesState | null>

export const PlatformFeaturesContext = createContext<PlatformFeaturesLoading | null>(null)

export const usePlatformFeatures = (): PlatformFeaturesLoading | null => useContext(PlatformFeaturesContext)

/** Whether animations are cut (a LOW device, or reduced motion asked for): false without the features. */
export const reducedEffectsOf = async (loading: PlatformFeaturesLoading | null): Promise<boolean> =>
  (await loading?.catch(() => null))?.reducedEffects ?? false
