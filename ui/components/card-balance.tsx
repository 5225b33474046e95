import type { ReactNode } from 'react'

/** One balance: a label, the amount and its unit, with an optional action under it. */
export function CardBalance({
  label,
  amount,
  unit = 'AXIOM',
  tone = 'plain',
  icon,
  footer,
  testId,
  loading,
}: {
  readonly label: string
  readonly amount: ReactNode
  readonly unit?: string
  readonly tone?: 'main' | 'plain'
  readonly icon?: ReactNode
  readonly footer?: ReactNode
  readonly testId: string
  readonly loading?: boolean
}) {
  return (
    <div className={`card-balance card-balance--${tone}`} data-testid={testId} aria-busy={loading || undefined}>
      <div className="card-balance__head">
        {icon}
        <span className="card-balance__label">{label}</span>
      </div>
      <div className="card-balance__amount num">
        <span data-testid={`${testId}-amount`}>{amount}</span> <span className="card-balance__unit">{unit}</span>
      </div>
      {footer ? <div className="card-balance__footer">{footer}</div> : null}
    </div>
  )
}
