import { useContext, useEffect } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { BackButtonContext } from './contexts.ts'

/** True when the router has an earlier entry to go back to (react-router keeps `idx` in history.state). */
export const hasHistoryToGoBack = (): boolean => {
  const state = window.history.state as { idx?: unknown } | null
  return typeof state?.idx === 'number' && state.idx > 0
}

/**
 * The host's back button (spec §2): shown on every route but the root; it goes back, or to the
 * dashboard when there is no earlier page.
 */
export const useBackButton = (): void => {
  const backButton = useContext(BackButtonContext)
  const navigate = useNavigate()
  const { pathname } = useLocation()
  const isRoot = pathname === '/'
  useEffect(() => {
    if (isRoot) {
      backButton.hide()
      return
    }
    backButton.show(() => {
      if (hasHistoryToGoBack()) void navigate(-1)
      else void navigate('/', { replace: true })
    })
  }, [backButton, navigate, isRoot])
}

/** Navigation scrolls to the top (spec §2). */
export const useScrollToTop = (): void => {
  const { pathname } = useLocation()
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' })
  }, [pathname])
}
