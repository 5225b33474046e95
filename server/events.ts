/** Where live events go once a transaction commits: the socket hub, or nowhere (admin CLI). */
export interface EventSink {
  toUser(userId: bigint, event: string, data: unknown): void
  broadcast(event: string, data: unknown): void
}

interface Queued {
  readonly userId: bigint | null
  readonly event: string
  /** Built at flush time, so the event shows committed state. */
  readonly data: () => unknown
}

export interface EventQueue {
  /** Queues an event; the same key queued twice before a flush is sent once. */
  push(key: string, userId: bigint | null, event: string, data: () => unknown): void
  flush(): void
  discard(): void
  attach(sink: EventSink | null): void
}

export const createEventQueue = (): EventQueue => {
  let pending = new Map<string, Queued>()
  let sink: EventSink | null = null
  return {
    push: (key, userId, event, data) => {
      pending.delete(key)
      pending.set(key, { userId, event, data })
    },
    flush: () => {
      const list = [...pending.values()]
      pending = new Map()
      if (!sink) return
      for (const e of list) {
        const data = e.data()
        if (e.userId === null) sink.broadcast(e.event, data)
        else sink.toUser(e.userId, e.event, data)
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
