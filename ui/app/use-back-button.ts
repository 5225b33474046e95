import { useContext, useEffect } from 'react'
import { BackButtonContext } from './contexts.ts'
import { hasHistoryToGoBack, useNavigate, usePathname } from './navigation.ts'

/**
 * The host's back button (spec §2): shown on every route but the root; it goes back, or to the
 * dashboard when there is no earlier page.
 */
export const useBackButton = (): void => {
  const backButton = useContext(BackButtonContext)
  const navigate = useNavigate()
  const isRoot = usePathname() === '/'
  useEffect(() => {
    if (isRoot) {
      backButton.hide()
      return
    }
    backButton.show(() => {
      if (hasHistoryToGoBack()) window.history.back()
      else navigate('/', { replace: true })
    })
  }, [backButton, navigate, isRoot])
}

/** Navigation scrolls to the top (spec §2). */
export const useScrollToTop = (): void => {
  const pathname = usePathname()
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' })
  }, [pathname])
}
