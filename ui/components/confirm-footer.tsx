import type { ReactNode } from 'react'
import { Button } from './button.tsx'

/** The footer of a confirm sheet: a way back on the left, the action on the right (busy while it runs). */
export function ConfirmFooter({
  backLabel,
  onBack,
  backTestId,
  confirmLabel,
  onConfirm,
  confirmTestId,
  busy = false,
  danger = false,
}: {
  readonly backLabel: ReactNode
  readonly onBack: () => void
  readonly backTestId: string
  readonly confirmLabel: ReactNode
  readonly onConfirm: () => void
  readonly confirmTestId: string
  readonly busy?: boolean
  readonly danger?: boolean
}) {
  return (
    <>
      <Button variant="secondary" onClick={onBack} testId={backTestId}>
        {backLabel}
      </Button>
      <Button variant={danger ? 'danger' : 'primary'} busy={busy} onClick={onConfirm} testId={confirmTestId}>
        {confirmLabel}
      </Button>
    </>
  )
}
