/** In-memory stores: complete fakes of the storage ports (the adapters the bot and the browser's fallback use). */
export { InMemoryKeyValueStore as MemoryKeyValueStore } from '../../../adapters/shared/in-memory-key-value-store.ts'
export { InMemorySessionStore as MemorySessionStore } from '../../../adapters/shared/in-memory-session-store.ts'
