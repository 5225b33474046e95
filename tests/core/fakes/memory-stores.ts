/** The in-memory stores the adapters ship are complete fakes of the storage ports. */
export { InMemoryKeyValueStore as MemoryKeyValueStore } from '../../../adapters/shared/in-memory-key-value-store.ts'
export { InMemorySessionStore as MemorySessionStore } from '../../../adapters/shared/in-memory-session-store.ts'
