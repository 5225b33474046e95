/** In-memory stores: complete fakes of the storage ports (the key-value one is the adapter the browser falls back to). */
export { InMemoryKeyValueStore as MemoryKeyValueStore } from '../../../adapters/shared/in-memory-key-value-store.ts'
export { MemorySessionStore } from './memory-session-store.ts'
