import { CANDLE_INTERVALS, type CandleInterval } from '../../core/index.ts'
import { UsageError } from '../args.ts'
import { candleChart } from '../candle-chart.ts'
import { fine } from '../output.ts'
import { formatRate } from '../records.ts'
import { type Command, orFail } from './command.ts'
import { COIN } from '../../core/domain/constants.ts'

const signed = (v: number) => `${v > 0 ? '+' : ''}${formatRate(v)} %`

export const price: Command = {
  name: 'price',
  args: '',
  summary: 'The AXIOM price in GRAM, and its change over 24 h and 30 days',
  examples: ['axiom price'],
  positionals: [0, 0],
  auth: true,
  async run(ctx, out) {
    const p = orFail(await out.exec(ctx.uc.loadPrice(), 'Loading the price'))
    out.emit(p, `${fine(p.price)} ${COIN} · 24h ${signed(p.price_change_24h)} · 30d ${signed(p.price_change_30d)}\n`)
  },
}

export const candles: Command = {
  name: 'candles',
  args: `[--interval ${CANDLE_INTERVALS.join('|')}]`,
  summary: 'A candle chart of the price, sized to the terminal',
  examples: ['axiom candles --interval 1h'],
  options: { interval: { type: 'string' } },
  positionals: [0, 0],
  auth: true,
  async run(ctx, out, a) {
    const interval = (a.values.interval ?? '1h') as CandleInterval
    if (!CANDLE_INTERVALS.includes(interval))
      throw new UsageError(`--interval must be one of ${CANDLE_INTERVALS.join(', ')}, got "${String(a.values.interval)}"`)
    const list = await out.exec(ctx.uc.loadCandles(interval), 'Loading candles')
    const columns = ctx.io.stdout.columns ?? 80
    out.emit(
      list,
      () => `AXIOM/${COIN} · ${interval}\n` + candleChart(list, { columns, rows: 14, color: ctx.io.stdout.isTTY === true }),
    )
  },
}
