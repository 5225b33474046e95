import { CANDLE_INTERVAL_SECONDS } from '../domain/constants.ts'
import type { CandleInterval } from '../domain/entities/market.ts'
import type { AxiomApi } from '../ports/axiom-api.port.ts'
import { type Clock, nowSeconds } from '../ports/clock.port.ts'

type MarketApi = Pick<AxiomApi, 'currentPrice' | 'candles' | 'financialStats'>

/** How many candles a chart asks for. */
export const CANDLES_PER_CHART = 120

export const loadPrice = (deps: { readonly api: MarketApi }) => deps.api.currentPrice()

/** The latest candles of an interval, enough to fill a chart. */
export const loadCandles = (deps: { readonly api: MarketApi; readonly clock: Clock }) => (interval: CandleInterval) => {
  const to = nowSeconds(deps.clock)
  return deps.api.candles({ interval, from_timestamp: to - CANDLE_INTERVAL_SECONDS[interval] * CANDLES_PER_CHART, to_timestamp: to })
}

export const loadFinancialStats = (deps: { readonly api: MarketApi }) => deps.api.financialStats()
