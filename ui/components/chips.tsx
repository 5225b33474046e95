/** Selectable day chips (bond and farming plans). */
export function DayChips({
  label,
  days,
  value,
  onChange,
  format,
  testIdPrefix,
}: {
  readonly label: string
  readonly days: ReadonlyArray<number>
  readonly value: number | null
  readonly onChange: (days: number) => void
  readonly format: (days: number) => string
  readonly testIdPrefix: string
}) {
  return (
    <div className="chips" role="radiogroup" aria-label={label}>
      {days.map((d) => (
        <button
          key={d}
          type="button"
          role="radio"
          aria-checked={d === value}
          className={`chip${d === value ? ' is-active' : ''}`}
          onClick={() => onChange(d)}
          data-testid={`${testIdPrefix}-${d}`}
        >
          {format(d)}
        </button>
      ))}
    </div>
  )
}
