import type { ReactNode } from 'react'

export function EmptyState({
  title,
  hint,
  icon,
  action,
  testId,
}: {
  readonly title: string
  readonly hint?: string
  readonly icon?: ReactNode
  readonly action?: ReactNode
  readonly testId?: string
}) {
  return (
    <div className="empty-state" data-testid={testId}>
      {icon ? <div className="empty-state__icon">{icon}</div> : null}
      <p className="empty-state__title">{title}</p>
      {hint ? <p className="empty-state__hint">{hint}</p> : null}
      {action}
    </div>
  )
}
