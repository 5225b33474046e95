import { deleteInBatches } from './bounded-delete.ts'
import type { RateCount, RateLimitStore, RateLimitStoreFactory } from '../config/rate-limits.ts'
import type { Db } from './engine.ts'

type HitRow = { key: string; hits: bigint; reset_at: bigint }

/** One hit of `key`, counted in the table: a window that has ended starts again at 1. */
const HIT = `INSERT INTO rate_limit_hits (key, hits, reset_at) VALUES (?, 1, ?)
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN rate_limit_hits.reset_at <= ? THEN 1 ELSE rate_limit_hits.hits + 1 END,
    reset_at = CASE WHEN rate_limit_hits.reset_at <= ? THEN ? ELSE rate_limit_hits.reset_at END
  RETURNING key, hits, reset_at`

/** `n` keys' hits added at once (a window that has ended starts again at the hits added). */
const addHits = (n: number) => `INSERT INTO rate_limit_hits (key, hits, reset_at) VALUES ${Array.from({ length: n }, () => '(?, ?, ?)').join(', ')}
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN rate_limit_hits.reset_at <= ? THEN excluded.hits ELSE rate_limit_hits.hits + excluded.hits END,
    reset_at = CASE WHEN rate_limit_hits.reset_at <= ? THEN excluded.reset_at ELSE rate_limit_hits.reset_at END
  RETURNING key, hits, reset_at`

/** Counts one hit in the table itself: exact under any number of instances. */
const exactHit = async (db: Db, key: string, windowMs: number, at: number): Promise<HitRow> =>
  (await db.one<HitRow>(HIT, key, at + windowMs, at, at, at + windowMs))!

/**
 * The request limits counted in the database (table rate_limit_hits, unlogged on PostgreSQL), so
 * the instances on one PostgreSQL share each client's budget. One statement per hit, atomic under
 * any number of instances: the row of a key whose window has ended starts a new window at 1, else
 * its count goes up by one; the count and the window's end come back. Windows are in milliseconds
 * of the instances' clocks (kept in step by NTP, as the tokens' expiry already needs).
 */
export const exactRateLimitStore = (db: Db, now: () => number = Date.now): RateLimitStore => ({
  incr: async (key, windowMs) => {
    const at = now()
    const row = await exactHit(db, key, windowMs, at)
    return { current: Number(row.hits), ttlMs: Math.max(0, Number(row.reset_at) - at) }
  },
})

/** How the batched count flushes: every `flushMs`, or sooner when a key has half of `unseenMax` (rounded down) hits the table has not seen. */
export interface BatchOptions {
  readonly flushMs: number
  /** Hits of one key an instance may count before the table has seen them; the next one waits for the flush. */
  readonly unseenMax: number
  readonly now?: () => number
}

/** The general rule's accuracy across instances: flushed every 250 ms, at most 25 hits of a client unseen per instance. */
export const GENERAL_BATCH: BatchOptions = { flushMs: 250, unseenMax: 25 }

/** The most keys one flush statement carries. */
const FLUSH_CHUNK = 100

interface Entry {
  /** The key's hits in the table at the last sync (this instance's flushed ones included). */
  shared: number
  /** The end of the key's window, as the table has it (ms). */
  resetAt: number
  windowMs: number
  /** Hits counted here, not yet sent. */
  pending: number
  /** Hits sent in the flush under way. */
  sending: number
  /** The first sync of a key this instance did not know (or whose window had ended), under way. */
  loading: Promise<void> | null
}

export interface BatchedStore extends RateLimitStore {
  /** Sends the hits counted here to the table (the timer does it; closing the server does it once more). */
  flush(): Promise<void>
}

/**
 * A rule counted in this process and added to the shared table now and then, for the general rule
 * that every request pays: a key this instance does not know (or whose window has ended here) is
 * counted in the table at once, exactly (so the client's hits on the other instances are known);
 * after that its hits are counted here, on top of the table's count at the last sync, and sent in one
 * statement for all keys every `flushMs`, or as soon as a key has `unseenMax / 2` unsent hits. A key
 * never has more than `unseenMax` hits the table has not seen: the next one waits for the flush.
 * One instance alone counts exactly. With several, each one can let a client through on hits it
 * has not yet learned of from the others, at most `unseenMax` per other instance in one window.
 */
export const batchedRateLimitStore = (db: Db, options: BatchOptions): BatchedStore => {
  const now = options.now ?? Date.now
  const entries = new Map<string, Entry>()
  let timer: ReturnType<typeof setTimeout> | null = null
  let flushing: Promise<void> | null = null
  /** The last flush's statement failed (the database did not answer). */
  let failed = false

  const learn = (row: HitRow) => {
    const e = entries.get(row.key)
    if (!e) return
    e.shared = Number(row.hits)
    e.resetAt = Number(row.reset_at)
  }

  const sendAll = async (): Promise<void> => {
    const at = now()
    const batch: Array<[string, Entry]> = []
    for (const [key, e] of entries) {
      // Hits of a window that has ended count no more.
      if (e.resetAt <= at) e.pending = 0
      if (e.pending > 0) {
        e.sending = e.pending
        e.pending = 0
        batch.push([key, e])
      } else if (e.sending === 0 && e.loading === null && e.resetAt <= at) entries.delete(key)
    }
    for (let i = 0; i < batch.length; i += FLUSH_CHUNK) {
      const part = batch.slice(i, i + FLUSH_CHUNK)
      const params: unknown[] = []
      for (const [key, e] of part) params.push(key, e.sending, e.resetAt > at ? e.resetAt : at + e.windowMs)
      try {
        const rows = await db.all<HitRow>(addHits(part.length), ...params, at, at)
        failed = false
        for (const [, e] of part) e.sending = 0
        for (const row of rows) learn(row)
      } catch {
        failed = true
        // The table did not answer: the hits stay counted here and go with the next flush.
        for (const [, e] of part) {
          e.pending += e.sending
          e.sending = 0
        }
      }
    }
  }

  /** A flush asked for while one is under way: it runs once after it, however many ask. */
  let queued: Promise<void> | null = null
  const flush = (): Promise<void> => {
    if (timer) {
      clearTimeout(timer)
      timer = null
    }
    if (queued) return queued
    if (!flushing) {
      flushing = sendAll().finally(() => (flushing = null))
      return flushing
    }
    const next: Promise<void> = flushing.then(() => {
      queued = null
      flushing = sendAll().finally(() => (flushing = null))
      return flushing
    })
    queued = next
    return next
  }

  const schedule = () => {
    if (timer === null) {
      timer = setTimeout(() => void flush(), options.flushMs)
      timer.unref?.()
    }
  }

  const sync = (key: string, windowMs: number, e: Entry | undefined): Promise<void> => {
    const entry: Entry = e ?? { shared: 0, resetAt: 0, windowMs, pending: 0, sending: 0, loading: null }
    entries.set(key, entry)
    entry.pending = 0
    entry.loading = exactHit(db, key, windowMs, now()).then(
      (row) => {
        entry.shared = Number(row.hits)
        entry.resetAt = Number(row.reset_at)
        entry.loading = null
      },
      (err: unknown) => {
        entry.loading = null
        if (entry.shared === 0 && entry.pending === 0 && entry.sending === 0) entries.delete(key)
        throw err
      },
    )
    return entry.loading
  }

  return {
    flush,
    incr: (key, windowMs) => {
      const e = entries.get(key)
      const at = now()
      // The usual hit of a known client: counted here, with no promise.
      if (e && !e.loading && e.resetAt > at && e.pending + e.sending < options.unseenMax) return countHere(e, at)
      return slowIncr(key, windowMs)
    },
  }

  function countHere(e: Entry, at: number): RateCount {
    e.pending++
    if (e.pending >= Math.floor(options.unseenMax / 2)) void flush()
    else schedule()
    return { current: e.shared + e.sending + e.pending, ttlMs: Math.max(0, e.resetAt - at) }
  }

  async function slowIncr(key: string, windowMs: number): Promise<RateCount> {
    let e = entries.get(key)
    if (e?.loading) {
      await e.loading.catch(() => undefined)
      e = entries.get(key)
    }
    if (!e || e.resetAt <= now()) {
      // The hit itself, counted in the table.
      await sync(key, windowMs, e)
      const synced = entries.get(key)!
      return { current: synced.shared + synced.sending + synced.pending, ttlMs: Math.max(0, synced.resetAt - now()) }
    }
    while (e.pending + e.sending >= options.unseenMax) {
      await flush()
      if (failed) throw new Error('the request counts could not be sent to the database')
    }
    return countHere(e, now())
  }
}

/**
 * The stores of a server on the database: the general rule batched (batchedRateLimitStore, its
 * accuracy GENERAL_BATCH), the strict ones (register, create, withdraw, upload) exact, a statement
 * per hit. `flush` sends what the general rule has counted here (on closing).
 */
export const databaseRateLimitStore = (
  db: Db,
  now: () => number = Date.now,
  general: BatchOptions = GENERAL_BATCH,
): RateLimitStoreFactory & { flush(): Promise<void> } => {
  const exact = exactRateLimitStore(db, now)
  const batched = batchedRateLimitStore(db, { ...general, now })
  // The plugin's keys already name their rule (`create:user:7`), so one store serves each kind.
  return Object.assign((rule: Parameters<RateLimitStoreFactory>[0]) => (rule === 'general' ? batched : exact), { flush: batched.flush })
}

/** Forgets the windows that have ended (the periodic pass runs it), in batches that yield. */
export const pruneRateLimitHits = (db: Db, now: number = Date.now(), o: { readonly signal?: AbortSignal } = {}) =>
  deleteInBatches(db, 'rate_limit_hits', 'reset_at <= ?', [now], o)
