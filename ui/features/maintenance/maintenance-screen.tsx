import { ToolIcon } from '../../components/icons.tsx'
import { useT } from '../../i18n/use-t.ts'

/** Maintenance (spec §2); the view model reloads the page when it ends. */
export function MaintenanceScreen() {
  const t = useT()
  return (
    <main className="full-screen" data-testid="maintenance">
      <div className="full-screen__icon">
        <ToolIcon size={40} />
      </div>
      <h1 className="full-screen__title">{t('maintenance.title')}</h1>
      <p className="full-screen__body">{t('maintenance.body')}</p>
    </main>
  )
}
