import { CANDLE_INTERVAL_SECONDS } from '../../core/domain/constants.ts'
import type { Db } from '../db/engine.ts'
import { allRows, big, getRow, num, run } from '../db/sql.ts'
import type { ServerContext } from './context.ts'
import { DomainError, PriceOutOfDate } from './errors.ts'
import { formatFixed, formatNano } from './money.ts'
import { MAX_CANDLES, type CandleInterval, type CandleNano, type PriceFeed } from './price-walk.ts'
import { COIN } from '../../core/domain/constants.ts'

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

/**
 * The largest move `admin price set` records without `--force`, in percent of the last recorded price:
 * a typo (`25` for `0.025`) would otherwise pay a thousand times too much until the treasury is empty.
 */
export const MAX_PRICE_MOVE_PERCENT = 20n

/** The last price recorded (the latest tick), or null before the first. */
export const lastRecordedPrice = async (db: Db): Promise<{ readonly at: number; readonly priceNano: bigint } | null> => {
  const row = await getRow(db, 'SELECT at, price_nano FROM price_ticks ORDER BY at DESC LIMIT 1')
  return row ? { at: num(row, 'at'), priceNano: big(row, 'price_nano') } : null
}

/** The move from `from` to `to` as signed percent text with at most 2 decimals, rounded toward zero: "+21", "-90", "+99900". */
export const priceMoveText = (from: bigint, to: bigint): string => {
  const scaled = ((to - from) * 10_000n) / from
  return `${scaled >= 0n ? '+' : ''}${formatFixed(scaled, 2)}`
}

/** A new price more than MAX_PRICE_MOVE_PERCENT away from the last one, recorded without `--force`. */
export class PriceMoveRefused extends DomainError {
  readonly _tag = 'PriceMoveRefused'
  constructor(last: bigint, next: bigint) {
    super(
      `refused: ${formatNano(next)} ${COIN} per AXIOM is ${priceMoveText(last, next)}% from the last recorded price ${formatNano(last)} ` +
        `(more than ${MAX_PRICE_MOVE_PERCENT}%); if it is right, run again with --force`,
    )
  }
}

/** What `admin price set` recorded: the price before it (null for the first) and whether the guard was overridden. */
export interface PriceSet {
  readonly previousNano: bigint | null
  readonly forced: boolean
}

/**
 * `admin price set`: records `priceNano` at `at`, unless it moves more than MAX_PRICE_MOVE_PERCENT from
 * the last recorded price and `force` is not given (PriceMoveRefused, nothing recorded). The first price is
 * accepted as it is. `forced` is true only when the guard would have refused.
 */
export const setRecordedPrice = async (db: Db, at: number, priceNano: bigint, o: { force?: boolean } = {}): Promise<PriceSet> => {
  if (priceNano <= 0n) throw new Error('a price must be above zero')
  const last = await lastRecordedPrice(db)
  const diff = last ? (priceNano > last.priceNano ? priceNano - last.priceNano : last.priceNano - priceNano) : 0n
  const tooFar = last !== null && diff * 100n > MAX_PRICE_MOVE_PERCENT * last.priceNano
  if (tooFar && !o.force) throw new PriceMoveRefused(last.priceNano, priceNano)
  await recordPriceTick(db, at, priceNano)
  return { previousNano: last?.priceNano ?? null, forced: tooFar }
}

/**
 * The price a bond or a sale is quoted and created at (TON per AXIOM, nano): on the recorded price, the
 * last tick at or before now (before the first, the first), read from the database itself (so within the
 * caller's transaction, and a tick another process recorded a moment ago counts), refused with
 * PriceOutOfDate when it is older than `priceMaxAgeS` (AXIOM_PRICE_MAX_AGE): an operator who stopped
 * recording must not leave the treasury buying and selling at an old price. The walk is always fresh.
 */
export const quotePrice = async (ctx: ServerContext): Promise<bigint> => {
  const now = ctx.now()
  if (ctx.config.priceSource !== 'recorded') return ctx.price.priceAt(now)
  const row =
    (await getRow(ctx.db, 'SELECT at, price_nano FROM price_ticks WHERE at <= ? ORDER BY at DESC LIMIT 1', now)) ??
    (await getRow(ctx.db, 'SELECT at, price_nano FROM price_ticks ORDER BY at LIMIT 1'))
  if (!row) throw new PriceOutOfDate()
  const maxAge = ctx.config.priceMaxAgeS
  if (maxAge !== null && now - num(row, 'at') > maxAge) throw new PriceOutOfDate()
  return big(row, 'price_nano')
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
