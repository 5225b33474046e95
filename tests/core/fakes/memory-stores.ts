import type { KeyValueStore, SessionKey, SessionStore } from '../../../core/index.ts'

/** Session tokens in a Map, seeded from an object. */
export class MemorySessionStore implements SessionStore {
  private readonly tokens: Map<SessionKey, string>

  constructor(seed: Partial<Record<SessionKey, string>> = {}) {
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

/** Local storage in a Map, seeded from an object. */
export class MemoryKeyValueStore implements KeyValueStore {
  private readonly values: Map<string, string>

  constructor(seed: Record<string, string> = {}) {
    this.values = new Map(Object.entries(seed))
  }

  get(key: string): string | null {
    return this.values.get(key) ?? null
  }

  set(key: string, value: string): void {
    this.values.set(key, value)
  }

  remove(key: string): void {
    this.values.delete(key)
  }

  clear(): void {
    this.values.clear()
  }

  get size(): number {
    return this.values.size
  }
}
