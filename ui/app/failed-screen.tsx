import { Button } from '../components/button.tsx'
import { AlertIcon } from '../components/icons.tsx'
import { useT } from '../i18n/use-t.ts'

/** Start-up failed (sign-in or network): try again by reloading. */
export function FailedScreen() {
  const t = useT()
  return (
    <main className="full-screen" data-testid="failed">
      <div className="full-screen__icon full-screen__icon--warn">
        <AlertIcon size={40} />
      </div>
      <h1 className="full-screen__title">{t('failed.title')}</h1>
      <p className="full-screen__body">{t('failed.body')}</p>
      <Button onClick={() => window.location.reload()} testId="failed-retry">
        {t('failed.retry')}
      </Button>
    </main>
  )
}
