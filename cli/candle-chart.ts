import { formatAmount } from '../core/index.ts'
import type { Candle } from '../core/index.ts'
import { width } from './table.ts'

export interface ChartOptions {
  /** Terminal columns available. */
  readonly columns: number
  /** Rows of the plot (price axis), without the time axis. */
  readonly rows?: number
  /** Colour rising candles green and falling ones red (a TTY). */
  readonly color?: boolean
}

const GREEN = '\x1b[32m'
const RED = '\x1b[31m'
const RESET = '\x1b[0m'
const UP_BODY = '█'
const DOWN_BODY = '▒'
const WICK = '│'

const clock = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ')

/**
 * A candle chart for a terminal: one column a candle (the newest ones that fit the width), a price
 * axis on the left, the first and last candle's time underneath. Rising candles are solid, falling
 * ones shaded; wicks are thin lines.
 */
export const candleChart = (candles: ReadonlyArray<Candle>, o: ChartOptions): string => {
  if (candles.length === 0) return '(no candles)\n'
  const rows = Math.max(4, o.rows ?? 16)
  const all = candles.flatMap((c) => [c.low, c.high])
  const labelOf = (v: number) => formatAmount(v, 6)
  const labelWidth = Math.max(...[Math.max(...all), Math.min(...all)].map((v) => width(labelOf(v))))
  const plotWidth = Math.max(1, o.columns - labelWidth - 3)
  const shown = candles.slice(-plotWidth)
  const max = Math.max(...shown.map((c) => c.high))
  const min = Math.min(...shown.map((c) => c.low))
  const step = max > min ? (max - min) / rows : 1
  const lines: string[] = []
  for (let r = 0; r < rows; r++) {
    const top = max - r * step
    const bottom = r === rows - 1 ? min - step : max - (r + 1) * step
    const label = r === 0 ? labelOf(max) : r === rows - 1 ? labelOf(min) : r === Math.floor(rows / 2) ? labelOf((max + min) / 2) : ''
    let plot = ''
    for (const c of shown) {
      const up = c.close >= c.open
      const bodyHigh = Math.max(c.open, c.close)
      const bodyLow = Math.min(c.open, c.close)
      let ch = ' '
      if (bodyHigh >= bottom && bodyLow <= top) ch = up ? UP_BODY : DOWN_BODY
      else if (c.high >= bottom && c.low <= top) ch = WICK
      plot += ch !== ' ' && o.color ? `${up ? GREEN : RED}${ch}${RESET}` : ch
    }
    lines.push(`${label.padStart(labelWidth)} ┤${plot}`)
  }
  const first = clock(shown[0]!.time)
  const last = clock(shown[shown.length - 1]!.time)
  const axis = ' '.repeat(labelWidth) + ' └' + '─'.repeat(shown.length)
  const gap = Math.max(1, shown.length - first.length - last.length)
  const times = ' '.repeat(labelWidth + 2) + (shown.length > first.length + last.length ? first + ' '.repeat(gap) + last : `${first} → ${last}`)
  return [...lines, axis, times].join('\n') + '\n'
}
