import { useRef } from 'react'

/** Keeps the last non-null value, so that a closing modal still shows what it showed. */
export const useLastDefined = <T,>(value: T | null | undefined): T | null => {
  const last = useRef<T | null>(null)
  if (value !== null && value !== undefined) last.current = value
  return last.current
}
