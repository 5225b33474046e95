import type { Address } from '@ton/core'
import type { ServerConfig } from '../config/config.ts'
import type { Db, Engine, TransactionOptions } from '../db/engine.ts'
import { createEventQueue, type EventQueue, type LiveEvents } from './events.ts'
import type { PriceFeed } from './price-walk.ts'
import type { TelegramGateway } from './telegram-gateway.ts'

/** Everything a domain function needs: the database, the rules' settings, the clock, live events, prices. */
export interface ServerContext {
  /** The engine, or inside `inTx` the transaction. */
  readonly db: Db
  readonly engine: Engine
  readonly config: ServerConfig
  /** Unix seconds. */
  readonly now: () => number
  /** This transaction's live events (outside a transaction, none may be queued). */
  readonly events: EventQueue
  readonly live: LiveEvents
  readonly price: PriceFeed
  /** The key a contract answers to `get_public_key` on the chain (the tonProof fallback), once the chain service runs. */
  readonly chainPublicKey?: (address: Address) => Promise<Buffer | null>
  /** The Bot API, when config.telegram is set. */
  readonly telegram: TelegramGateway | null
  /** Who acts, for the audit log (server/domain/audit.ts): `system` when absent. */
  readonly actor?: string
}

/**
 * Runs `fn` as one transaction (server/db/engine.ts: one writer on SQLite, SERIALIZABLE with retry
 * on PostgreSQL), with a context whose `db` is the transaction; then sends the live events it queued.
 * A failure sends nothing. Inside a transaction, `fn` simply joins it.
 */
export const inTx = async <T>(ctx: ServerContext, fn: (tx: ServerContext) => Promise<T>, options?: TransactionOptions): Promise<T> => {
  if (ctx.db.inTransaction) return fn(ctx)
  let events: EventQueue = createEventQueue()
  const result = await ctx.engine.transaction((db) => {
    // A re-run starts from a clean queue: a failed attempt's events never happened.
    events = createEventQueue()
    return fn({ ...ctx, db, events })
  }, options)
  try {
    await ctx.live.deliver(events.drain())
  } catch {
    // The transaction committed; a socket that misses an event reads the state on its next request.
  }
  return result
}
