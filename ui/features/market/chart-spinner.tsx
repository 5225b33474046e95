import { Spinner } from '../../components/spinner.tsx'

/** The chart's box with a spinner in it: while its candles, or its code, are on their way. */
export function ChartSpinner() {
  return (
    <div className="chart__overlay">
      <Spinner size={24} />
    </div>
  )
}
