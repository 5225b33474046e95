import { type DependencyList, useEffect } from 'react'

/** Runs `effect` once the dependencies have stopped changing for `ms`. */
export const useDebouncedEffect = (effect: () => void, deps: DependencyList, ms = 400): void => {
  useEffect(() => {
    const timer = setTimeout(effect, ms)
    return () => clearTimeout(timer)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, ms])
}
