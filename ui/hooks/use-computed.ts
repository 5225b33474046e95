import { computed } from 'mobx'
import { type DependencyList, useMemo } from 'react'

/**
 * Reads a MobX computed inside an observer: the component re-renders only when the computed
 * value changes, not on every change of what it reads (the per-second ticker).
 */
export const useComputed = <T,>(fn: () => T, deps: DependencyList): T => {
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const c = useMemo(() => computed(fn), deps)
  return c.get()
}
