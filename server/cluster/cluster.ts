import type { Change } from '../domain/events.ts'

/**
 * How the instances of one deployment act as one: a bus that carries each committed change and each
 * price tick to every instance (this one included), and leases that let exactly one instance do a
 * job (drive the price, pay out sales). One process on SQLite is its own cluster (`localCluster`);
 * on PostgreSQL, LISTEN/NOTIFY and session advisory locks (server/cluster/postgres-cluster.ts).
 */
export type BusMessage = { readonly type: 'changes'; readonly changes: ReadonlyArray<Change> } | { readonly type: 'tick'; readonly at: number }

export interface Lease {
  /** Whether this instance holds the lease now. */
  held(): boolean
  /** Called each time this instance takes the lease (at once if it holds it already). */
  onAcquired(fn: () => void): void
}

export interface Cluster {
  /** Sends to every instance, this one included. */
  publish(message: BusMessage): Promise<void>
  /** Messages are handed over one at a time, in the order they arrived. */
  subscribe(handler: (message: BusMessage) => Promise<void> | void): void
  /** The lease `name`, after a first attempt to take it. */
  lease(name: string): Promise<Lease>
  /**
   * Called when messages may have been missed: the instance's listening connection was lost and is
   * back (NOTIFY is not kept for a session that is gone). Never, for one process.
   */
  onGap(fn: () => void): void
  close(): Promise<void>
}

/** One process: messages go straight to its own handlers (before publish returns); every lease is held. */
export const localCluster = (): Cluster => {
  const handlers: Array<(m: BusMessage) => Promise<void> | void> = []
  return {
    publish: async (m) => {
      for (const h of handlers) await h(m)
    },
    subscribe: (h) => void handlers.push(h),
    lease: async () => ({ held: () => true, onAcquired: (fn) => fn() }),
    onGap: () => undefined,
    close: async () => undefined,
  }
}
