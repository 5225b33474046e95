import { type RefObject, useLayoutEffect } from 'react'

type Listener = (visible: boolean) => void

const listeners = new Map<Element, Listener>()
let observer: IntersectionObserver | null = null

/** One observer for every watched element: cheaper than one per element. */
const shared = (): IntersectionObserver | null => {
  if (typeof IntersectionObserver === 'undefined') return null
  observer ??= new IntersectionObserver((entries) => {
    for (const e of entries) listeners.get(e.target)?.(e.isIntersecting)
  })
  return observer
}

/**
 * Runs `start` while the element is on screen and stops it when it leaves (or unmounts): work
 * for what nobody can see is skipped. Without IntersectionObserver it simply runs.
 */
export const useWhileVisible = (ref: RefObject<Element | null>, start: () => () => void, deps: ReadonlyArray<unknown>) => {
  useLayoutEffect(() => {
    const el = ref.current
    const io = shared()
    if (!el || !io) return start()
    let stop: (() => void) | null = null
    listeners.set(el, (visible) => {
      if (visible && !stop) stop = start()
      else if (!visible && stop) {
        stop()
        stop = null
      }
    })
    io.observe(el)
    return () => {
      io.unobserve(el)
      listeners.delete(el)
      stop?.()
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps)
}
