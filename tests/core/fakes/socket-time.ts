import { vi } from 'vitest'

/**
 * Time for the live sockets, which run on the default Effect runtime and plain timers:
 * vitest's fake timers, with the runtime's own scheduler ticks flushed after each move.
 */
export const socketTime = () => {
  const start = Date.now()
  const flush = async () => {
    for (let i = 0; i < 5; i++) await vi.advanceTimersByTimeAsync(0)
  }
  return {
    flush,
    /** Moves time on by `ms`. */
    advance: async (ms: number) => {
      await vi.advanceTimersByTimeAsync(ms)
      await flush()
    },
    /** Moves time to `ms` after the start. */
    to: async (ms: number) => {
      await vi.advanceTimersByTimeAsync(Math.max(0, start + ms - Date.now()))
      await flush()
    },
    elapsed: () => Date.now() - start,
  }
}
