import { useId, useMemo, useState } from 'react'
import { type AmountInputResult, formatAmount, parseAmountInput, truncateDecimal } from '../../core/index.ts'
import { useT } from '../i18n/use-t.ts'

export interface AmountField {
  readonly text: string
  readonly setText: (text: string) => void
  readonly result: AmountInputResult
  /** The valid amount, or null. */
  readonly value: number | null
  readonly touched: boolean
  readonly setTouched: (touched: boolean) => void
  readonly reset: () => void
}

/** The state of one amount input: the raw text and the core's reading of it (parseAmountInput). */
export const useAmountField = (max?: number, decimals = 2, initial = ''): AmountField => {
  const [text, setText] = useState(initial)
  const [touched, setTouched] = useState(false)
  const result = useMemo(() => parseAmountInput(text, decimals, max), [text, decimals, max])
  return {
    text,
    setText,
    result,
    value: result.ok ? result.value : null,
    touched,
    setTouched,
    reset: () => {
      setText(initial)
      setTouched(false)
    },
  }
}

const decimalsTyped = (raw: string): number => raw.replace(',', '.').split('.')[1]?.length ?? 0

/**
 * An amount input: decimal keyboard, truncation to `decimals` as you type, a 'Max' button
 * when a balance is known, and the reason an amount is not accepted (empty, not a number,
 * not above zero, over the balance).
 */
export function InputAmount({
  field,
  label,
  max,
  decimals = 2,
  testId,
  unit = 'AXIOM',
  disabled,
  availableText,
  overBalanceText,
}: {
  readonly field: AmountField
  readonly label: string
  readonly max?: number
  readonly decimals?: number
  readonly testId: string
  readonly unit?: string
  readonly disabled?: boolean
  /** The screen's own words for the available amount and for an amount over it (Sell: what can be sold, not the whole balance). */
  readonly availableText?: string
  readonly overBalanceText?: string
}) {
  const t = useT()
  const id = useId()
  const { result } = field
  const error = !result.ok && field.touched ? (result.reason === 'over-balance' && overBalanceText ? overBalanceText : t(`amount.error.${result.reason}`)) : null

  const onChange = (raw: string) => {
    field.setTouched(true)
    const parsed = parseAmountInput(raw, decimals)
    // Typed past the allowed decimals: cut the text itself (never round), keeping the zeros typed.
    const separator = raw.search(/[.,]/)
    field.setText(parsed.ok && decimalsTyped(raw) > decimals && separator >= 0 ? raw.slice(0, separator + 1 + decimals) : raw)
  }

  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <div className="field__top">
        <label className="field__label" htmlFor={id}>
          {label}
        </label>
        {max !== undefined ? (
          <span className="field__hint num" data-testid={`${testId}-available`}>
            {availableText ?? t('amount.available', { amount: formatAmount(max, decimals) })}
          </span>
        ) : null}
      </div>
      <div className="field__control">
        <input
          id={id}
          className="field__input num"
          type="text"
          inputMode="decimal"
          autoComplete="off"
          placeholder={t('amount.placeholder')}
          value={field.text}
          onChange={(e) => onChange(e.target.value)}
          onBlur={() => field.setTouched(true)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          data-testid={testId}
          disabled={disabled}
        />
        <span className="field__unit">{unit}</span>
        {max !== undefined && max > 0 ? (
          <button
            type="button"
            className="field__max"
            onClick={() => {
              field.setTouched(true)
              field.setText(truncateDecimal(max, decimals))
            }}
            title={t('amount.setMax')}
            data-testid={`${testId}-max`}
            disabled={disabled}
          >
            {t('common.max')}
          </button>
        ) : null}
      </div>
      {error ? (
        <p className="field__error" id={`${id}-error`} role="alert" data-testid={`${testId}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  )
}
