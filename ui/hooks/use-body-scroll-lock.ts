import { useEffect } from 'react'

let locks = 0
let previousOverflow = ''

/** Locks page scrolling while `active` (modals). Nested locks are counted. */
export const useBodyScrollLock = (active: boolean): void => {
  useEffect(() => {
    if (!active) return
    if (locks === 0) {
      previousOverflow = document.body.style.overflow
      document.body.style.overflow = 'hidden'
    }
    locks++
    return () => {
      locks--
      if (locks === 0) document.body.style.overflow = previousOverflow
    }
  }, [active])
}
