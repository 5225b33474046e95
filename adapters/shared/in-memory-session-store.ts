import type { SessionKey, SessionStore } from '../../core/ports/session-store.port.ts'
import { InMemoryKeyValueStore } from './in-memory-key-value-store.ts'

/** Session tokens held in memory (the bot's per-user sessions, tests): the same map, keyed by the session's keys. */
export class InMemorySessionStore extends InMemoryKeyValueStore implements SessionStore {
  constructor(seed: Readonly<Partial<Record<SessionKey, string>>> = {}) {
    super(seed as Readonly<Record<string, string>>)
  }
}
