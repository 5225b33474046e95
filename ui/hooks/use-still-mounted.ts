import { useCallback, useEffect, useRef } from 'react'

/**
 * Whether the screen is still shown: an answer that comes after the user went elsewhere (a purchase
 * resolves some seconds after it was asked for) must not move them off the screen they chose.
 */
export const useStillMounted = (): (() => boolean) => {
  const mounted = useRef(false)
  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
    }
  }, [])
  return useCallback(() => mounted.current, [])
}
