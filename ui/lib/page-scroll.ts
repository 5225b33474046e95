/**
 * The page's scroll position as navigation sets it, apart from the scroll lock under modals
 * (ui/lib/page-scroll-lock.ts): the lock's code loads with the first modal, while every route
 * change scrolls the page. A lock, while held, takes over `scrollPageTo` (it moves the offset the
 * page returns to when unlocked).
 */

let whileLocked: ((top: number) => void) | null = null

/** Called by the scroll lock: its scroll while it holds the page, null once it lets go. */
export const setLockedScroll = (scroll: ((top: number) => void) | null): void => {
  whileLocked = scroll
}

/**
 * Scrolls the page; while it is locked, moves the offset it returns to when unlocked (a route
 * changed under a modal starts at its top).
 */
export const scrollPageTo = (top: number): void => {
  if (whileLocked) whileLocked(top)
  else window.scrollTo({ top, left: 0, behavior: 'instant' })
}
