import { useEffect } from 'react'

let locks = 0
let previous = { html: '', body: '' }

/**
 * Locks page scrolling while `active` (modals): both the root and the body stop scrolling, whichever
 * of them the browser scrolls. Nested locks are counted.
 */
export const useBodyScrollLock = (active: boolean): void => {
  useEffect(() => {
    if (!active) return
    const html = document.documentElement.style
    const body = document.body.style
    if (locks === 0) {
      previous = { html: html.overflow, body: body.overflow }
      html.overflow = 'hidden'
      body.overflow = 'hidden'
    }
    locks++
    return () => {
      locks--
      if (locks === 0) {
        html.overflow = previous.html
        body.overflow = previous.body
      }
    }
  }, [active])
}
