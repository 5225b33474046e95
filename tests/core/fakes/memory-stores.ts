import { InMemoryKeyValueStore } from '../../../adapters/shared/in-memory-key-value-store.ts'
import type { SessionKey, SessionStore } from '../../../core/ports/session-store.port.ts'

/** In-memory stores: complete fakes of the storage ports (the key-value one is the adapter the browser falls back to). */
export { InMemoryKeyValueStore as MemoryKeyValueStore }

/** Session tokens held in memory: the same map, keyed by the session's keys. */
export class MemorySessionStore extends InMemoryKeyValueStore implements SessionStore {
  constructor(seed: Readonly<Partial<Record<SessionKey, string>>> = {}) {
    super(seed as Readonly<Record<string, string>>)
  }
}
