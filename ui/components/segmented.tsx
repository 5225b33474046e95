export interface SegmentOption<V extends string> {
  readonly value: V
  readonly label: string
  readonly testId?: string
}

/** A row of mutually exclusive choices (a radio group that looks like a segmented control). */
export function Segmented<V extends string>({
  label,
  options,
  value,
  onChange,
  size = 'md',
}: {
  readonly label: string
  readonly options: ReadonlyArray<SegmentOption<V>>
  readonly value: V
  readonly onChange: (v: V) => void
  readonly size?: 'md' | 'sm'
}) {
  return (
    <div className={`segmented segmented--${size}`} role="radiogroup" aria-label={label}>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          role="radio"
          aria-checked={o.value === value}
          className={`segmented__item${o.value === value ? ' is-active' : ''}`}
          onClick={() => onChange(o.value)}
          data-testid={o.testId}
        >
          {o.label}
        </button>
      ))}
    </div>
  )
}
