import type { Database } from 'better-sqlite3'
import type { ServerConfig } from './config.ts'
import type { EventQueue } from './events.ts'
import type { PriceFeed } from './domain/price-walk.ts'

/** Everything a domain function needs: the database, the rules' settings, the clock, live events, prices. */
export interface ServerContext {
  readonly db: Database
  readonly config: ServerConfig
  /** Unix seconds. */
  readonly now: () => number
  readonly events: EventQueue
  readonly price: PriceFeed
}

/**
 * Runs `fn` as one SQLite transaction (IMMEDIATE, so a concurrent admin CLI waits rather than fails),
 * then sends the live events it queued; a failure sends nothing.
 */
export const inTx = <T>(ctx: ServerContext, fn: () => T): T => {
  if (ctx.db.inTransaction) return fn()
  let result: T
  try {
    result = ctx.db.transaction(fn).immediate()
  } catch (e) {
    ctx.events.discard()
    throw e
  }
  ctx.events.flush()
  return result
}
