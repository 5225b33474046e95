import type { SessionKey, SessionStore } from '../../core/ports/session-store.port.ts'

/** Session tokens held in memory: tests, and a CLI run that must not persist a session. */
export class InMemorySessionStore implements SessionStore {
  private readonly tokens: Map<SessionKey, string>

  constructor(seed: Readonly<Partial<Record<SessionKey, string>>> = {}) {
    this.tokens = new Map(Object.entries(seed) as Array<[SessionKey, string]>)
  }

  get(key: SessionKey): string | null {
    return this.tokens.get(key) ?? null
  }

  set(key: SessionKey, value: string): void {
    this.tokens.set(key, value)
  }

  remove(key: SessionKey): void {
    this.tokens.delete(key)
  }
}
