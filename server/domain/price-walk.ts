import { CANDLE_INTERVAL_SECONDS, type CANDLE_INTERVALS } from '../../core/domain/constants.ts'

export type CandleInterval = (typeof CANDLE_INTERVALS)[number]

/** The walk moves every 5 minutes from 2024-01-01; between steps the price wanders inside the step's range. */
const STEP_S = 300
const EPOCH_S = 1_704_067_200
/** 0.025 TON per AXIOM. */
const BASE_PRICE_NANO = 25_000_000n
export const MAX_CANDLES = 1000

export interface CandleNano {
  readonly time: number
  readonly open: bigint
  readonly high: bigint
  readonly low: bigint
  readonly close: bigint
}

/** The price now (nano TON per AXIOM) and its change over 24 h and 30 d, in percent scaled by 100. */
export interface PriceNow {
  readonly price: bigint
  readonly change24h: bigint
  readonly change30d: bigint
}

export interface PriceFeed {
  /** TON per AXIOM in nano at unix second `t`. */
  priceAt(t: number): bigint
  current(now: number): PriceNow
  candles(interval: CandleInterval, from: number, to: number, now: number): ReadonlyArray<CandleNano>
  currentCandle(interval: CandleInterval, now: number): CandleNano
}

/** A 32-bit integer hash of (seed, n): the walk's only source of randomness, so one seed gives one series. */
const mix = (seed: number, n: number): number => {
  let h = (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(n, 0xc2b2ae35)) >>> 0
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0
  return (h ^ (h >>> 16)) >>> 0
}

const max = (a: bigint, b: bigint) => (a > b ? a : b)
const min = (a: bigint, b: bigint) => (a < b ? a : b)

export const createPriceFeed = (seed: number): PriceFeed => {
  const steps: bigint[] = [BASE_PRICE_NANO]

  const stepPrice = (n: number): bigint => {
    if (n <= 0) return BASE_PRICE_NANO
    while (steps.length <= n) {
      const p = steps[steps.length - 1]!
      let drift = BigInt((mix(seed, steps.length) % 601) - 300)
      if (p > BASE_PRICE_NANO * 3n) drift -= 60n
      if (p < BASE_PRICE_NANO / 3n) drift += 60n
      steps.push(max(1000n, p + (p * drift) / 100_000n))
    }
    return steps[n]!
  }

  /**
   * Half the height of step n's range around its open/close: 0.01 % to 0.25 % of the price. Never
   * zero, so the price a user watches moves within seconds, as a market's does, even in a step
   * with no drift.
   */
  const wiggle = (n: number): bigint => (stepPrice(n) * BigInt(10 + (mix(seed ^ 0x5bd1e995, n) % 240))) / 100_000n

  const stepCandle = (n: number): CandleNano => {
    const open = stepPrice(n)
    const close = stepPrice(n + 1)
    const w = wiggle(n)
    return { time: EPOCH_S + n * STEP_S, open, close, high: max(open, close) + w, low: min(open, close) - w }
  }

  const priceAt = (t: number): bigint => {
    if (t <= EPOCH_S) return BASE_PRICE_NANO
    const n = Math.floor((t - EPOCH_S) / STEP_S)
    const c = stepCandle(n)
    const into = BigInt(t - (EPOCH_S + n * STEP_S))
    const line = c.open + ((c.close - c.open) * into) / BigInt(STEP_S)
    if (into === 0n) return c.open
    const w = wiggle(n)
    const jitter = BigInt(mix(seed ^ 0x27d4eb2f, t)) % (2n * w + 1n) - w
    return min(c.high, max(c.low, line + jitter))
  }

  /** The candle of `interval` starting at `start`, cut at `now` if it is still open. */
  const candleAt = (interval: CandleInterval, start: number, now: number): CandleNano => {
    const size = CANDLE_INTERVAL_SECONDS[interval]
    const first = Math.floor((start - EPOCH_S) / STEP_S)
    const end = Math.min(start + size, now)
    const lastFull = Math.floor((end - EPOCH_S) / STEP_S)
    const open = stepPrice(first)
    let high = open
    let low = open
    for (let n = first; n < lastFull; n++) {
      const c = stepCandle(n)
      high = max(high, c.high)
      low = min(low, c.low)
    }
    const close = end < start + size ? priceAt(end) : stepPrice(lastFull)
    return { time: start, open, close, high: max(high, close), low: min(low, close) }
  }

  const alignDown = (t: number, size: number) => EPOCH_S + Math.floor((t - EPOCH_S) / size) * size

  const change = (now: number, ago: number): bigint => {
    const before = priceAt(now - ago)
    return ((priceAt(now) - before) * 10_000n) / before
  }

  return {
    priceAt,
    current: (now) => ({
      price: priceAt(now),
      change24h: change(now, 86_400),
      change30d: change(now, 30 * 86_400),
    }),
    candles: (interval, from, to, now) => {
      const size = CANDLE_INTERVAL_SECONDS[interval]
      const last = alignDown(Math.min(to, now), size)
      let first = Math.max(alignDown(Math.max(from, EPOCH_S), size), last - (MAX_CANDLES - 1) * size)
      const out: CandleNano[] = []
      for (; first <= last; first += size) out.push(candleAt(interval, first, now))
      return out
    },
    currentCandle: (interval, now) => candleAt(interval, alignDown(now, CANDLE_INTERVAL_SECONDS[interval]), now),
  }
}
