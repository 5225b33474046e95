import type { KeyValueStore } from '../../core/ports/key-value-store.port.ts'

/** Values that live as long as the process: tests, the CLI, and browsers whose storage refuses writes. */
export class InMemoryKeyValueStore implements KeyValueStore {
  private readonly values: Map<string, string>

  constructor(seed: Readonly<Record<string, string>> = {}) {
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
