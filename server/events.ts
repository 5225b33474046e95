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

interface Queued {
  readonly userId: bigint | null
  /** Built at flush time, so the event shows committed state; null when its row is gone. */
  readonly event: () => LiveEvent | null
}

export interface EventQueue {
  /** Queues an event; the same key queued twice before a flush is sent once. */
  push(key: string, userId: bigint | null, event: () => LiveEvent | null): void
  flush(): void
  discard(): void
  attach(sink: EventSink | null): void
}

export const createEventQueue = (): EventQueue => {
  let pending = new Map<string, Queued>()
  let sink: EventSink | null = null
  return {
    push: (key, userId, event) => {
      pending.delete(key)
      pending.set(key, { userId, event })
    },
    flush: () => {
      const list = [...pending.values()]
      pending = new Map()
      if (!sink) return
      for (const e of list) {
        const event = e.event()
        if (event === null) continue
        if (e.userId === null) sink.broadcast(event)
        else sink.toUser(e.userId, event)
      }
    },
    discard: () => {
      pending = new Map()
    },
    attach: (s) => {
      sink = s
    },
  }
}
