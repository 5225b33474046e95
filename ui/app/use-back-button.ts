import { useContext, useEffect } from 'react'
import { scrollPageTo } from '../lib/page-scroll.ts'
import { BackButtonContext } from '../lib/host-contexts.ts'
import { hasHistoryToGoBack, useNavigate, usePathname } from '../hooks/navigation.ts'

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

/** Navigation scrolls to the top (spec §2), also when it happens under a modal that holds the page. */
export const useScrollToTop = (): void => {
  const pathname = usePathname()
  useEffect(() => {
    scrollPageTo(0)
  }, [pathname])
}
