import { useLocation } from 'wouter'
import { usePathname as useBrowserPathname } from 'wouter/use-browser-location'

/**
 * In-app navigation on the History API. Each entry the app pushes carries its depth in
 * `history.state.idx` (the first page has none), so the back button knows whether there is an
 * earlier page of the app to go back to (spec §2).
 */
const entryIndex = (): number | null => {
  const state = window.history.state as { idx?: unknown } | null
  return typeof state?.idx === 'number' ? state.idx : null
}

export interface NavigateOptions {
  readonly replace?: boolean
}

/** Pushes (or, with `replace`, replaces) the current entry with `to`; the router re-renders. */
export const navigateTo = (to: string, options?: NavigateOptions): void => {
  const idx = entryIndex() ?? 0
  if (options?.replace === true) window.history.replaceState({ idx }, '', to)
  else window.history.pushState({ idx: idx + 1 }, '', to)
}

/** True when the app pushed the current entry on top of an earlier one of its own. */
export const hasHistoryToGoBack = (): boolean => (entryIndex() ?? 0) > 0

/** True when the current entry was reached by in-app navigation, not by loading the page at it. */
export const reachedByNavigation = (): boolean => entryIndex() !== null

/** The router's location hook: the browser's pathname, and `navigateTo`. */
export const useAppLocation = (): [string, typeof navigateTo] => [useBrowserPathname(), navigateTo]

/** The current pathname (re-renders when it changes). */
export const usePathname = (): string => useLocation()[0]

/** A stable function that navigates within the app. */
export const useNavigate = (): ((to: string, options?: NavigateOptions) => void) => useLocation()[1]
