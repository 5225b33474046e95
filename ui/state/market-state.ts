import type { Effect } from 'effect'
import { makeAutoObservable, runInAction } from 'mobx'
import {
  type ApiError,
  type Candle,
  type CandleInterval,
  type CurrentCandle,
  DEFAULT_CANDLE_INTERVAL,
  type FinancialStats,
  type Price,
} from '../../core/index.ts'
import { runResult } from './run-effect.ts'

export interface MarketUseCases {
  readonly loadPrice: () => Effect.Effect<Price | null, ApiError>
  readonly loadCandles: (interval: CandleInterval) => Effect.Effect<ReadonlyArray<Candle>, ApiError>
  readonly loadFinancialStats: () => Effect.Effect<FinancialStats | null, ApiError>
  /** Tells the live candle socket which interval to stream. */
  readonly switchLiveInterval: (interval: CandleInterval) => void
}

/** The price with its 24h/30d change, the candle chart with live updates, and the platform's financial stats. */
export class MarketState {
  price: Price | null = null
  interval: CandleInterval = DEFAULT_CANDLE_INTERVAL
  candles: Candle[] = []
  /** The newest live candle, for `series.update`. */
  liveCandle: Candle | null = null
  isFetchingCandles = false
  /** `GET /stats/financial`; null before the first answer, or when the server could not give one. */
  stats: FinancialStats | null = null
  /** The first stats request has answered (with figures or without). */
  statsLoaded = false

  constructor(private readonly uc: MarketUseCases) {
    makeAutoObservable<this, 'uc'>(this, { uc: false })
  }

  async refresh(): Promise<void> {
    await Promise.all([this.refreshPrice(), this.loadCandles(), this.refreshStats()])
  }

  /** Keeps the figures already shown when a refetch fails. */
  async refreshStats(): Promise<void> {
    const r = await runResult(this.uc.loadFinancialStats())
    runInAction(() => {
      this.statsLoaded = true
      if (r._tag === 'Success' && r.success) this.stats = r.success
    })
  }

  async refreshPrice(): Promise<void> {
    const r = await runResult(this.uc.loadPrice())
    runInAction(() => {
      if (r._tag === 'Success' && r.success) this.price = r.success
    })
  }

  async chooseInterval(interval: CandleInterval): Promise<void> {
    if (interval === this.interval) return
    this.interval = interval
    this.uc.switchLiveInterval(interval)
    await this.loadCandles()
  }

  /** A live `price_update` event. */
  applyPrice(price: Price): void {
    this.price = price
  }

  /** A live `current_candle` event: replaces the last candle or starts a new one. */
  applyCandle(candle: CurrentCandle): void {
    if (candle.interval && candle.interval !== this.interval) return
    const bar: Candle = { time: candle.time, open: candle.open, high: candle.high, low: candle.low, close: candle.close }
    const last = this.candles[this.candles.length - 1]
    if (last && last.time === bar.time) this.candles[this.candles.length - 1] = bar
    else if (!last || bar.time > last.time) this.candles.push(bar)
    this.liveCandle = bar
  }

  private async loadCandles(): Promise<void> {
    const interval = this.interval
    this.isFetchingCandles = true
    const r = await runResult(this.uc.loadCandles(interval))
    runInAction(() => {
      this.isFetchingCandles = false
      if (r._tag === 'Success' && interval === this.interval) this.candles = [...r.success]
    })
  }
}
