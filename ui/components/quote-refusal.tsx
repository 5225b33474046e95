import { useT } from '../i18n/use-t.ts'

/**
 * The server's refusal of a quote ("amount must be at least 1"), in the summary box where the quote
 * would be: its words as they are, under a translated label. An error in place: no toast, no haptic.
 */
export function QuoteRefusal({ msg, testId }: { readonly msg: string; readonly testId: string }) {
  const t = useT()
  return (
    <div className="summary" role="alert" data-testid={testId}>
      <p className="summary__refusal">
        <strong>{t('quote.refused')}</strong> {msg}
      </p>
    </div>
  )
}
