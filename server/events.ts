import type { Db } from './db/engine.ts'
import type { MintRow, StakeRow, UserRow } from './domain/rows.ts'

/**
 * What the domain tells the sockets once a transaction commits, as domain rows; the socket side
 * turns each into its JSON payload (server/http/wire-format.ts, `liveEventWire`).
 */
export type LiveEvent =
  | { readonly event: 'user:balance'; readonly user: UserRow }
  | { readonly event: 'user:mint'; readonly mint: MintRow }
  | { readonly event: 'user:staking'; readonly stake: StakeRow }
  | { readonly event: 'global:collective_bonus'; readonly collectiveBonus: bigint }

/** Where live events go once a transaction commits: the sockets, or nowhere (admin CLI). */
export interface EventSink {
  toUser(userId: bigint, event: LiveEvent): void
  broadcast(event: LiveEvent): void
}

/** A queued event: built at delivery, from committed state (null when its row is gone). */
export interface Queued {
  readonly userId: bigint | null
  readonly event: (db: Db) => Promise<LiveEvent | null>
}

/** One transaction's events; the same key queued twice is sent once. */
export interface EventQueue {
  push(key: string, userId: bigint | null, event: (db: Db) => Promise<LiveEvent | null>): void
  drain(): Queued[]
}

export const createEventQueue = (): EventQueue => {
  let pending = new Map<string, Queued>()
  return {
    push: (key, userId, event) => {
      pending.delete(key)
      pending.set(key, { userId, event })
    },
    drain: () => {
      const list = [...pending.values()]
      pending = new Map()
      return list
    },
  }
}

/** Outside a transaction there is nothing to commit, so nothing may be queued. */
export const noQueue: EventQueue = {
  push: () => {
    throw new Error('live events are queued inside a transaction (inTx)')
  },
  drain: () => [],
}

/** Delivers committed transactions' events to the sink attached (the socket hub), reading them from `db`. */
export interface LiveEvents {
  attach(sink: EventSink | null): void
  deliver(events: Queued[], db: Db): Promise<void>
}

export const createLiveEvents = (): LiveEvents => {
  let sink: EventSink | null = null
  return {
    attach: (s) => {
      sink = s
    },
    deliver: async (events, db) => {
      if (!sink) return
      for (const e of events) {
        const event = await e.event(db)
        if (event === null || !sink) continue
        if (e.userId === null) sink.broadcast(event)
        else sink.toUser(e.userId, event)
      }
    },
  }
}
