import { type RefObject, useLayoutEffect } from 'react'
import { lockPageScroll } from '../lib/page-scroll-lock.ts'

/**
 * Holds the page still while `active` (modals), with `content` (the modal's sheet) still scrollable.
 * A layout effect, so the page is pinned before the modal first paints: no frame, wheel or touch
 * reaches an unlocked page under a visible modal.
 */
export const useBodyScrollLock = (active: boolean, content?: RefObject<Element | null>): void => {
  useLayoutEffect(() => {
    if (!active) return
    return lockPageScroll(content?.current ?? null)
  }, [active, content])
}
