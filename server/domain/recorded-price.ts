import { CANDLE_INTERVAL_SECONDS } from '../../core/domain/constants.ts'
import type { Db } from '../db/engine.ts'
import { allRows, big, num, run } from '../db/sql.ts'
import { MAX_CANDLES, type CandleInterval, type CandleNano, type PriceFeed } from './price-walk.ts'

/**
 * Production's price: the ticks an operator records (`npm run admin -- price set <ton>`), kept in
 * `price_ticks` (unix second → nanotons per AXIOM). The price at t is the last tick at or before t
 * (before the first, the first); candles are cut from the ticks. Nothing in it is predictable from
 * the repository. The feed keeps the ticks in memory and reads the new ones on `refresh`.
 */
export interface RecordedPriceFeed extends PriceFeed {
  /** Reads the ticks recorded since the last read (another process's admin command among them). */
  refresh(): Promise<void>
  readonly ticks: number
}

export class NoPriceRecorded extends Error {
  override readonly name = 'NoPriceRecorded'
  constructor() {
    super('no price is recorded: set one with `npm run admin -- price set <ton per AXIOM>`')
  }
}

export const recordPriceTick = async (db: Db, at: number, priceNano: bigint): Promise<void> => {
  if (priceNano <= 0n) throw new Error('a price must be above zero')
  await run(db, 'INSERT INTO price_ticks (at, price_nano) VALUES (?, ?) ON CONFLICT(at) DO UPDATE SET price_nano = excluded.price_nano', at, priceNano)
}

const max = (a: bigint, b: bigint) => (a > b ? a : b)
const min = (a: bigint, b: bigint) => (a < b ? a : b)

export const createRecordedPriceFeed = async (db: Db): Promise<RecordedPriceFeed> => {
  const at: number[] = []
  const price: bigint[] = []
  let reading: Promise<void> | null = null
  const refresh = () =>
    (reading ??= (async () => {
      const since = at.length > 0 ? at[at.length - 1]! : -1
      // The last tick again too: an admin may have set the same second twice.
      for (const r of await allRows(db, 'SELECT at, price_nano FROM price_ticks WHERE at >= ? ORDER BY at', since)) {
        const t = num(r, 'at')
        if (at.length > 0 && at[at.length - 1] === t) price[price.length - 1] = big(r, 'price_nano')
        else {
          at.push(t)
          price.push(big(r, 'price_nano'))
        }
      }
    })().finally(() => {
      reading = null
    }))
  await refresh()
  if (at.length === 0) throw new NoPriceRecorded()

  /** The index of the last tick at or before t, or -1. */
  const indexAt = (t: number): number => {
    let lo = 0
    let hi = at.length - 1
    let found = -1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      if (at[mid]! <= t) {
        found = mid
        lo = mid + 1
      } else hi = mid - 1
    }
    return found
  }
  const priceAt = (t: number): bigint => price[Math.max(0, indexAt(t))]!

  const candleAt = (interval: CandleInterval, start: number, now: number): CandleNano => {
    const end = Math.min(start + CANDLE_INTERVAL_SECONDS[interval], now + 1)
    const open = priceAt(start)
    let high = open
    let low = open
    for (let i = indexAt(start) + 1; i < at.length && at[i]! < end; i++) {
      high = max(high, price[i]!)
      low = min(low, price[i]!)
    }
    return { time: start, open, high, low, close: priceAt(end - 1) }
  }
  const alignDown = (t: number, size: number) => Math.floor(t / size) * size
  const change = (now: number, ago: number): bigint => {
    const before = priceAt(now - ago)
    return ((priceAt(now) - before) * 10_000n) / before
  }

  return {
    refresh,
    get ticks() {
      return at.length
    },
    priceAt,
    current: (now) => ({ price: priceAt(now), change24h: change(now, 86_400), change30d: change(now, 30 * 86_400) }),
    candles: (interval, from, to, now) => {
      const size = CANDLE_INTERVAL_SECONDS[interval]
      const last = alignDown(Math.min(to, now), size)
      // From the first recorded tick: nothing is made up before it.
      let first = Math.max(alignDown(Math.max(from, at[0]!), size), last - (MAX_CANDLES - 1) * size)
      const out: CandleNano[] = []
      for (; first <= last; first += size) out.push(candleAt(interval, first, now))
      return out
    },
    currentCandle: (interval, now) => candleAt(interval, alignDown(now, CANDLE_INTERVAL_SECONDS[interval]), now),
  }
}
