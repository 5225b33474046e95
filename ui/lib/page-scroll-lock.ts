/**
 * The page's scroll lock under modals. `overflow: hidden` alone is not a lock: it lets programmatic
 * scrolls through (scrollIntoView, focus, scroll anchoring while the page grows), and iOS WebViews
 * ignore it for touch. So the body is pinned with `position: fixed` at its current offset (the
 * document then has nothing to scroll), and wheel, touch and scroll keys are cancelled unless they
 * scroll an allowed element (a modal's own content) that can still move that way. The first lock
 * saves the offset, the last unlock restores it; locks are counted, one per open modal.
 * A fixed body has no scroll anchoring, so the lock does it: what the user was looking at stays
 * where it was when content above it grows or shrinks under the modal (a chart or a list that
 * arrives late), and the page comes back there on unlock.
 */
import { setLockedScroll } from './page-scroll.ts'

const SCROLL_KEYS = new Set(['PageUp', 'PageDown', 'Home', 'End', 'ArrowUp', 'ArrowDown', ' ', 'Spacebar'])
/** Where a scroll key does something else (types, moves a caret, activates a control). */
const KEY_OWNERS = 'input, textarea, select, button, a[href], [contenteditable]:not([contenteditable="false"]), [role="button"], [role="slider"]'

interface Saved {
  readonly x: number
  readonly y: number
  readonly html: { overflow: string; overscrollBehavior: string }
  readonly body: { position: string; top: string; left: string; right: string; width: string; overflow: string; overscrollBehavior: string }
}

let locks = 0
let saved: Saved | null = null
/** The element the page is anchored on while locked, and its distance from the top of the screen. */
let anchor: { readonly el: Element; readonly top: number } | null = null
let resizes: ResizeObserver | null = null
let touchY = 0
const allowed = new Set<Element>()

const allowedRoot = (target: EventTarget | null): Element | null => {
  if (!(target instanceof Node)) return null
  for (const root of allowed) if (root.contains(target)) return root
  return null
}

/** Whether some element from `target` up to `root` can still scroll by `dy` (down when positive). */
const canScroll = (target: EventTarget | null, root: Element, dy: number): boolean => {
  if (dy === 0) return false
  for (let el: Element | null = target instanceof Element ? target : root; el; el = el === root ? null : el.parentElement) {
    const { overflowY } = getComputedStyle(el)
    if (overflowY !== 'auto' && overflowY !== 'scroll') continue
    if (el.scrollHeight <= el.clientHeight) continue
    if (dy > 0 ? el.scrollTop + el.clientHeight < el.scrollHeight - 1 : el.scrollTop > 0) return true
  }
  return false
}

const cancelUnlessAllowed = (e: Event, dy: number): void => {
  const root = allowedRoot(e.target)
  if (root && canScroll(e.target, root, dy)) return
  if (e.cancelable) e.preventDefault()
}

const onWheel = (e: WheelEvent): void => cancelUnlessAllowed(e, e.deltaY)

const onTouchStart = (e: TouchEvent): void => {
  touchY = e.touches[0]?.clientY ?? 0
}

const onTouchMove = (e: TouchEvent): void => {
  if (e.touches.length > 1) return // pinch zoom is not a scroll
  const y = e.touches[0]?.clientY ?? touchY
  // Measured from the last move, so a finger that turns back is judged by where it goes now. A move
  // with no vertical part is left alone in the modal's content, where cancelling it would stop the
  // scroll that follows.
  if (y !== touchY) cancelUnlessAllowed(e, touchY - y)
  else if (!allowedRoot(e.target) && e.cancelable) e.preventDefault()
  touchY = y
}

const keyDelta = (e: KeyboardEvent): number =>
  e.key === 'ArrowUp' || e.key === 'PageUp' || e.key === 'Home' || ((e.key === ' ' || e.key === 'Spacebar') && e.shiftKey) ? -1 : 1

const onKeyDown = (e: KeyboardEvent): void => {
  if (!SCROLL_KEYS.has(e.key) || e.defaultPrevented) return
  if (e.target instanceof Element && e.target.closest(KEY_OWNERS)) return
  cancelUnlessAllowed(e, keyDelta(e))
}

const listen = { capture: true, passive: false } as const
/** A touchstart is only read: kept passive, so taps do not wait on the main thread. */
const watch = { capture: true, passive: true } as const

/** Whether `el` is in a fixed layer (a modal, a toast, a bar): those do not move with the page. */
const inFixedLayer = (el: Element): boolean => {
  for (let e: Element | null = el; e && e !== document.body; e = e.parentElement) if (getComputedStyle(e).position === 'fixed') return true
  return false
}

/**
 * The page's element the user is looking at, as the browser's own scroll anchoring would pick it:
 * the deepest element of the page (not of a fixed layer) at the middle of the screen, else a third
 * of the way down or two thirds.
 */
const pickAnchor = (): Element | null => {
  if (typeof document.elementsFromPoint !== 'function') return null
  for (const f of [0.5, 0.33, 0.67]) {
    for (const el of document.elementsFromPoint(window.innerWidth / 2, window.innerHeight * f)) {
      if (el === document.body || el === document.documentElement) break
      if (!inFixedLayer(el)) return el
    }
  }
  return null
}

/** Keeps the anchor where it was on screen: the pinned body moves by what the anchor moved. */
const holdAnchor = (): void => {
  if (!saved || !anchor || !anchor.el.isConnected) return
  const moved = Math.round(anchor.el.getBoundingClientRect().top - anchor.top)
  if (moved === 0) return
  saved = { ...saved, y: Math.max(0, saved.y + moved) }
  document.body.style.top = `${-saved.y}px`
}

/** The page's offset as the user sees it, locked or not. */
export const pageScrollY = (): number => (saved ? saved.y : window.scrollY)

/** Whether a modal holds the page still. */
export const isPageScrollLocked = (): boolean => locks > 0

/**
 * While the page is locked, `scrollPageTo` (ui/lib/page-scroll.ts) moves the offset it returns to
 * when unlocked (a route changed under a modal starts at its top).
 */
const scrollLockedTo = (top: number): void => {
  if (!saved) return
  saved = { ...saved, x: 0, y: top }
  document.body.style.top = `${-top}px`
  // A new page under the modal: nothing on it to hold.
  anchor = null
}

/** Locks the page; `content` (a modal's sheet) may still scroll. Returns its unlock, to call once. */
export const lockPageScroll = (content: Element | null): (() => void) => {
  if (content) allowed.add(content)
  if (locks++ === 0) {
    const html = document.documentElement.style
    const body = document.body.style
    const x = window.scrollX
    const y = window.scrollY
    saved = {
      x,
      y,
      html: { overflow: html.overflow, overscrollBehavior: html.overscrollBehavior },
      body: {
        position: body.position,
        top: body.top,
        left: body.left,
        right: body.right,
        width: body.width,
        overflow: body.overflow,
        overscrollBehavior: body.overscrollBehavior,
      },
    }
    html.overflow = 'hidden'
    html.overscrollBehavior = 'none'
    body.position = 'fixed'
    body.top = `${-y}px`
    body.left = `${-x}px`
    body.right = '0'
    body.width = '100%'
    body.overflow = 'hidden'
    body.overscrollBehavior = 'none'
    setLockedScroll(scrollLockedTo)
    const el = pickAnchor()
    anchor = el ? { el, top: el.getBoundingClientRect().top } : null
    if (typeof ResizeObserver === 'function') {
      // The body's height changes whenever content is added, removed or resized: the anchor is checked then, before paint.
      resizes = new ResizeObserver(holdAnchor)
      resizes.observe(document.body)
    }
    document.addEventListener('wheel', onWheel, listen)
    document.addEventListener('touchstart', onTouchStart, watch)
    document.addEventListener('touchmove', onTouchMove, listen)
    document.addEventListener('keydown', onKeyDown, listen)
  }
  let done = false
  return () => {
    if (done) return
    done = true
    if (content) allowed.delete(content)
    if (--locks > 0 || !saved) return
    holdAnchor()
    resizes?.disconnect()
    resizes = null
    anchor = null
    const { x, y, html, body } = saved
    saved = null
    setLockedScroll(null)
    document.removeEventListener('wheel', onWheel, listen)
    document.removeEventListener('touchstart', onTouchStart, watch)
    document.removeEventListener('touchmove', onTouchMove, listen)
    document.removeEventListener('keydown', onKeyDown, listen)
    Object.assign(document.documentElement.style, html)
    Object.assign(document.body.style, body)
    window.scrollTo({ top: y, left: x, behavior: 'instant' })
  }
}
