import type { RateLimitStore, RateLimitStoreFactory } from '../http/rate-limits.ts'
import type { Db } from './engine.ts'

/**
 * The request limits counted in the database (table rate_limit_hits, unlogged on PostgreSQL), so
 * the instances on one PostgreSQL share each client's budget. One statement per hit, atomic under
 * any number of instances: the row of a key whose window has ended starts a new window at 1, else
 * its count goes up by one; the count and the window's end come back. Windows are in milliseconds
 * of the instances' clocks (kept in step by NTP, as the tokens' expiry already needs).
 */
export const databaseRateLimitStore = (db: Db, now: () => number = Date.now): RateLimitStoreFactory => {
  const store: RateLimitStore = {
    incr: async (key, windowMs) => {
      const at = now()
      const row = await db.one<{ hits: bigint; reset_at: bigint }>(
        `INSERT INTO rate_limit_hits (key, hits, reset_at) VALUES (?, 1, ?)
         ON CONFLICT (key) DO UPDATE SET
           hits = CASE WHEN rate_limit_hits.reset_at <= ? THEN 1 ELSE rate_limit_hits.hits + 1 END,
           reset_at = CASE WHEN rate_limit_hits.reset_at <= ? THEN ? ELSE rate_limit_hits.reset_at END
         RETURNING hits, reset_at`,
        key,
        at + windowMs,
        at,
        at,
        at + windowMs,
      )
      return { current: Number(row!.hits), ttlMs: Math.max(0, Number(row!.reset_at) - at) }
    },
  }
  // The plugin's keys already name their rule (`create:user:7`), so one store serves every rule.
  return () => store
}

/** Forgets the windows that have ended (the settle job runs it). */
export const pruneRateLimitHits = (db: Db, now: number = Date.now()) => db.run('DELETE FROM rate_limit_hits WHERE reset_at <= ?', now)
