import { useEffect, useState } from 'react'
import { Link } from 'wouter'
import { useT } from '../i18n/use-t.ts'
import { TONCONNECT_MANIFEST_PATH } from '../lib/links.ts'
import { reachedByNavigation } from '../hooks/navigation.ts'

/**
 * `/tonconnect-manifest.json` is a file, not a screen (spec §2): reached by in-app navigation it
 * forces a full-page load. On the first load the server should have answered with the file; if
 * the app is rendering instead, there is no file to show, so it says so rather than loop.
 */
export function ManifestRedirect() {
  const t = useT()
  const [navigated] = useState(reachedByNavigation)
  useEffect(() => {
    if (navigated) window.location.replace(TONCONNECT_MANIFEST_PATH)
  }, [navigated])
  return (
    <div className="empty-state" data-testid="manifest-redirect">
      <p className="empty-state__title">{navigated ? t('manifest.opening') : t('common.notFound')}</p>
      {navigated ? null : <Link to="/">{t('common.toDashboard')}</Link>}
    </div>
  )
}

export function NotFound() {
  const t = useT()
  return (
    <div className="empty-state" data-testid="not-found">
      <p className="empty-state__title">{t('common.notFound')}</p>
      <Link className="btn btn--primary btn--md" to="/" data-testid="not-found-home">
        {t('common.toDashboard')}
      </Link>
    </div>
  )
}
