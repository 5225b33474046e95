import { observer } from 'mobx-react-lite'
import { useToasts } from '../features/app-states.ts'
import { renderNoticeIn, useLanguage, useT } from '../i18n/use-t.ts'
import { AlertIcon, CheckIcon, CloseIcon } from '../components/icons.tsx'

/**
 * The toasts, top-left (spec §8); the queue removes each after its time (3 s by default). The
 * container is a named region (a landmark), each toast a status or, for an error, an alert.
 */
export const Toasts = observer(function Toasts() {
  const toasts = useToasts()
  const t = useT()
  const language = useLanguage()
  return (
    <section className="toasts" aria-label={t('toast.region')} data-testid="toasts">
      {toasts.toasts.map((toast) => (
        <div
          key={toast.id}
          className={`toast toast--${toast.kind}`}
          role={toast.kind === 'error' ? 'alert' : 'status'}
          data-testid={`toast-${toast.kind}`}
        >
          <span className="toast__icon">{toast.kind === 'error' ? <AlertIcon size={18} /> : <CheckIcon size={18} />}</span>
          <span className="toast__text">{renderNoticeIn(language, toast.notice)}</span>
          <button type="button" className="toast__close" onClick={() => toasts.dismiss(toast.id)} aria-label={t('toast.dismiss')}>
            <CloseIcon size={14} />
          </button>
        </div>
      ))}
    </section>
  )
})
