import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { MODAL_ANIMATION_DESKTOP_MS, MODAL_ANIMATION_MOBILE_MS, UI_MOBILE_BREAKPOINT_PX } from '../../core/index.ts'
import { useBodyScrollLock } from '../hooks/use-body-scroll-lock.ts'
import { useT } from '../i18n/use-t.ts'
import { CloseIcon } from './icons.tsx'

/** Spec §9: 200 ms on mobile (≤ 440 px), 100 ms on larger screens. */
const animationMs = (): number =>
  typeof window !== 'undefined' && window.matchMedia?.(`(max-width: ${UI_MOBILE_BREAKPOINT_PX}px)`).matches
    ? MODAL_ANIMATION_MOBILE_MS
    : MODAL_ANIMATION_DESKTOP_MS

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])'

export interface ModalProps {
  readonly open: boolean
  readonly title: ReactNode
  /** Without it the modal is blocking: no close button, no Esc, no backdrop close. */
  readonly onClose?: () => void
  readonly children?: ReactNode
  readonly actions?: ReactNode
  readonly testId: string
  readonly icon?: ReactNode
}

/**
 * The one accessible modal: a dialog with aria-modal, a title, Esc and backdrop to close (unless
 * blocking), focus kept inside, page scroll locked, and the §9 enter/leave animation.
 */
export function Modal({ open, title, onClose, children, actions, testId, icon }: ModalProps) {
  const t = useT()
  const titleId = useId()
  const [rendered, setRendered] = useState(open)
  const sheet = useRef<HTMLDivElement>(null)
  const restoreFocus = useRef<Element | null>(null)

  if (open && !rendered) setRendered(true)

  useEffect(() => {
    if (open || !rendered) return
    const timer = setTimeout(() => setRendered(false), animationMs())
    return () => clearTimeout(timer)
  }, [open, rendered])

  useEffect(() => {
    if (!open) return
    restoreFocus.current = document.activeElement
    const first = sheet.current?.querySelector<HTMLElement>('[data-autofocus]') ?? sheet.current
    first?.focus({ preventScroll: true })
    return () => {
      if (restoreFocus.current instanceof HTMLElement) restoreFocus.current.focus({ preventScroll: true })
    }
  }, [open])

  useBodyScrollLock(rendered, sheet)

  if (!rendered) return null

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape' && onClose) {
      e.stopPropagation()
      onClose()
      return
    }
    if (e.key !== 'Tab' || !sheet.current) return
    const items = Array.from(sheet.current.querySelectorAll<HTMLElement>(FOCUSABLE))
    const first = items[0]
    const last = items[items.length - 1]
    if (!first || !last) return
    if (e.shiftKey && (document.activeElement === first || document.activeElement === sheet.current)) {
      e.preventDefault()
      last.focus()
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault()
      first.focus()
    }
  }

  return createPortal(
    <div className={`modal ${open ? 'is-open' : 'is-closing'}`} style={{ ['--modal-ms' as string]: `${animationMs()}ms` }}>
      <div className="modal__backdrop" onClick={onClose} aria-hidden="true" data-testid={onClose ? 'modal-backdrop' : undefined} />
      <div
        ref={sheet}
        className="modal__sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        data-testid={testId}
      >
        {onClose ? (
          <button type="button" className="modal__close" onClick={onClose} aria-label={t('common.close')} data-testid="modal-close">
            <CloseIcon size={20} />
          </button>
        ) : null}
        <div className="modal__grab" aria-hidden="true" />
        {icon ? <div className="modal__icon">{icon}</div> : null}
        <h2 id={titleId} className="modal__title">
          {title}
        </h2>
        {children ? <div className="modal__body">{children}</div> : null}
        {actions ? <div className="modal__actions">{actions}</div> : null}
      </div>
    </div>,
    document.body,
  )
}
