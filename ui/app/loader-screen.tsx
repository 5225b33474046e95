import { TokenIcon } from '../components/token-icon.tsx'
import { useT } from '../i18n/use-t.ts'

/** Until the app is ready: the token icon beating like a heart (spec §2). */
export function LoaderScreen() {
  const t = useT()
  return (
    <main className="full-screen" role="status" aria-live="polite" aria-label={t('loader.label')} data-testid="loader">
      <div className="heartbeat">
        <TokenIcon size={96} />
      </div>
    </main>
  )
}
