import type { ReactNode } from 'react'

export function Section({
  title,
  aside,
  children,
  testId,
}: {
  readonly title?: string
  readonly aside?: ReactNode
  readonly children: ReactNode
  readonly testId?: string
}) {
  return (
    <section className="section" data-testid={testId}>
      {title || aside ? (
        <div className="section__head">
          {title ? <h2 className="section__title">{title}</h2> : <span />}
          {aside}
        </div>
      ) : null}
      {children}
    </section>
  )
}

export function ScreenHeader({ title, subtitle, aside }: { readonly title: string; readonly subtitle?: string; readonly aside?: ReactNode }) {
  return (
    <header className="screen-header">
      <div>
        <h1 className="screen-header__title">{title}</h1>
        {subtitle ? <p className="screen-header__subtitle">{subtitle}</p> : null}
      </div>
      {aside}
    </header>
  )
}

/** A label / value line in a summary card. */
export function Row({ label, value, testId, strong }: { readonly label: string; readonly value: ReactNode; readonly testId?: string; readonly strong?: boolean }) {
  return (
    <div className={`kv${strong ? ' kv--strong' : ''}`}>
      <span className="kv__label">{label}</span>
      <span className="kv__value num" data-testid={testId}>
        {value}
      </span>
    </div>
  )
}
