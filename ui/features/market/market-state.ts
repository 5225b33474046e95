import { makeAutoObservable, observableShallow, runInAction } from 'mobx'
import {
  type Candle,
  type CandleInterval,
  type CandleSocket,
  type CurrentCandle,
  DEFAULT_CANDLE_INTERVAL,
  type FinancialStats,
  type Price,
  type UseCases,
} from '../../../core/index.ts'
import { runResult } from '../../state/run-effect.ts'

/** What the market view model calls. */
export type MarketUseCases = Pick<UseCases, 'loadPrice' | 'loadCandles' | 'loadFinancialStats' | 'openCandleFeed'>

/** The price with its 24h/30d change, the candle chart with live updates, and the platform's financial stats. */
export class MarketState {
  price: Price | null = null
  /** The price has been asked for once and answered (or not): the dashboard's first figures can show. */
  priceAsked = false
  interval: CandleInterval = DEFAULT_CANDLE_INTERVAL
  candles: Candle[] = []
  /** The newest live candle, for `series.update`. */
  liveCandle: Candle | null = null
  /** The candles of the chosen interval are being fetched. */
  isFetching = false
  /** The first candles request has answered (with candles or without): the chart can draw once, with them. */
  candlesAnswered = false
  /** `GET /stats/financial`; null before the first answer, or when the server could not give one. */
  stats: FinancialStats | null = null
  /** The first stats request has answered (with figures or without). */
  statsLoaded = false

  /** The live candles of the chart's interval, once the app is running. */
  private candleSocket: CandleSocket | null = null
  /** The stats request out, if any: at most one at a time. */
  private statsInFlight: Promise<void> | null = null
  /** Stats were asked for again while a request was out: one more follows it. */
  private statsAskedAgain = false

  constructor(private readonly uc: MarketUseCases) {
    makeAutoObservable<this, 'uc' | 'candleSocket' | 'statsInFlight' | 'statsAskedAgain'>(this, {
      uc: false,
      // The array is observed, its candles are plain values (replaced, never changed in place):
      // a deep array would make 120 observable objects for every chart load.
      candles: observableShallow,
      candleSocket: false,
      statsInFlight: false,
      statsAskedAgain: false,
    })
  }

  /** Opens the live candle feed (it follows `interval`); opening it again only reopens a closed one. */
  openLive(): void {
    if (this.candleSocket) return this.candleSocket.ensureOpen()
    this.candleSocket = this.uc.openCandleFeed((c) => this.applyCandle(c))
    if (this.interval !== DEFAULT_CANDLE_INTERVAL) this.candleSocket.switchInterval(this.interval)
  }

  closeLive(): void {
    this.candleSocket?.close()
    this.candleSocket = null
  }

  async refresh(): Promise<void> {
    await Promise.all([this.refreshPrice(), this.refreshChartAndStats()])
  }

  /** The candles and the platform's figures: what the dashboard shows below the price. */
  async refreshChartAndStats(): Promise<void> {
    await Promise.all([this.loadCandles(), this.refreshStats()])
  }

  /**
   * Refetches the platform's figures: on start, on the visibility refetch, and after the user's own
   * bond, stake or cancel moved them. At most one request is out: asks while it is out are coalesced
   * into one more request after it, so the figures shown end up newer than the last ask. Keeps the
   * figures already shown when a refetch fails.
   */
  refreshStats(): Promise<void> {
    if (this.statsInFlight) {
      this.statsAskedAgain = true
      return this.statsInFlight
    }
    const flight = this.loadStatsWhileAsked()
    this.statsInFlight = flight
    return flight
  }

  private async loadStatsWhileAsked(): Promise<void> {
    try {
      do {
        this.statsAskedAgain = false
        const r = await runResult(this.uc.loadFinancialStats())
        runInAction(() => {
          this.statsLoaded = true
          if (r._tag === 'Success' && r.success) this.stats = r.success
        })
      } while (this.statsAskedAgain)
    } finally {
      this.statsInFlight = null
    }
  }

  async refreshPrice(): Promise<void> {
    const r = await runResult(this.uc.loadPrice())
    runInAction(() => {
      if (r._tag === 'Success' && r.success) this.price = r.success
      this.priceAsked = true
    })
  }

  async chooseInterval(interval: CandleInterval): Promise<void> {
    if (interval === this.interval) return
    this.interval = interval
    this.candleSocket?.switchInterval(interval)
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
    this.isFetching = true
    const r = await runResult(this.uc.loadCandles(interval))
    runInAction(() => {
      this.isFetching = false
      this.candlesAnswered = true
      if (r._tag === 'Success' && interval === this.interval) this.candles = [...r.success]
    })
  }
}
