import type { KeyValueStore } from '../../core/ports/key-value-store.port.ts'
import { InMemoryKeyValueStore } from '../shared/in-memory-key-value-store.ts'

/**
 * Small values in window.localStorage. Some browsers refuse storage outright (Safari's private
 * mode, storage disabled, quota exhausted): the first refusal moves the store to memory for the
 * rest of the page's life, taking along whatever storage still lets it read, so the app keeps
 * working and merely forgets on reload.
 */
export class LocalStorageKeyValueStore implements KeyValueStore {
  private fallback: InMemoryKeyValueStore | null = null

  constructor(private readonly storage: () => Storage = () => globalThis.localStorage) {}

  /** True once storage refused and values live in memory only. */
  get inMemory(): boolean {
    return this.fallback !== null
  }

  get(key: string): string | null {
    return this.attempt((s) => s.getItem(key), (m) => m.get(key))
  }

  set(key: string, value: string): void {
    this.attempt((s) => s.setItem(key, value), (m) => m.set(key, value))
  }

  remove(key: string): void {
    this.attempt((s) => s.removeItem(key), (m) => m.remove(key))
  }

  clear(): void {
    this.attempt((s) => s.clear(), (m) => m.clear())
  }

  private attempt<A>(onStorage: (s: Storage) => A, inMemory: (m: InMemoryKeyValueStore) => A): A {
    if (this.fallback === null) {
      try {
        return onStorage(this.storage())
      } catch {
        this.fallback = this.snapshot()
      }
    }
    return inMemory(this.fallback)
  }

  private snapshot(): InMemoryKeyValueStore {
    const memory = new InMemoryKeyValueStore()
    try {
      const storage = this.storage()
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i)
        const value = key === null ? null : storage.getItem(key)
        if (key !== null && value !== null) memory.set(key, value)
      }
    } catch {
      // Nothing readable: start empty.
    }
    return memory
  }
}
