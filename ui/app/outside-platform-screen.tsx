import { TokenIcon } from '../components/token-icon.tsx'
import { useT } from '../i18n/use-t.ts'
import { useUiConfig } from '../lib/host-contexts.ts'

/** Opened outside Telegram: the app redirects to the bot; this is what shows meanwhile. */
export function OutsidePlatformScreen() {
  const t = useT()
  const { botUsername } = useUiConfig()
  return (
    <main className="full-screen" data-testid="outside-platform">
      <TokenIcon size={72} />
      <h1 className="full-screen__title">{t('outside.title')}</h1>
      <p className="full-screen__body">{t('outside.body')}</p>
      <a className="btn btn--primary btn--md" href={`https://t.me/${botUsername}`} data-testid="outside-open-bot">
        {t('outside.open')}
      </a>
    </main>
  )
}
