import type { SessionKey, SessionStore } from '../../../core/ports/session-store.port.ts'

/** Session tokens held in memory: a complete fake of the session port. */
export class MemorySessionStore implements SessionStore {
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
