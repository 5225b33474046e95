import { Duration, Effect, Schedule } from 'effect'
import { describe, expect, it } from 'vitest'
import { socketReconnectPolicy, socketSendRetryPolicy, socketTokenRetryPolicy } from '../../../core/index.ts'

/** The delays a schedule gives for its first `n` recurrences (fewer if it ends), in ms. */
const delays = (schedule: Schedule.Schedule<unknown>, n: number): Promise<number[]> =>
  Effect.runPromise(
    Effect.gen(function* () {
      const step = yield* Schedule.toStep(schedule)
      const out: number[] = []
      let now = 0
      for (let i = 0; i < n; i++) {
        const next = yield* Effect.result(step(now, undefined))
        if (next._tag === 'Failure') break
        const ms = Duration.toMillis(next.success[1])
        out.push(ms)
        now += ms
      }
      return out
    }),
  )

describe('socket schedules (§9)', () => {
  it('reconnects after 1 s, 2 s, 4 s … capped at 30 s', async () => {
    expect((await delays(socketReconnectPolicy, 8))).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000])
  })

  it('after 1000 attempts (999 retries) in backoff, retries every 5 s for good', async () => {
    const d = await delays(socketReconnectPolicy, 1200)

    expect(d).toHaveLength(1200)
    expect(d.slice(0, 999).every((ms) => ms <= 30_000 && ms >= 1000)).toBe(true)
    expect(d[998]).toBe(30_000)
    expect(d.slice(999)).toEqual(Array(201).fill(5000))
  })

  it('retries a send 15 times, 2 s apart', async () => {
    expect(await delays(socketSendRetryPolicy, 20)).toEqual(Array(15).fill(2000))
  })

  it('looks for a token every second', async () => {
    expect(await delays(socketTokenRetryPolicy, 4)).toEqual([1000, 1000, 1000, 1000])
  })
})
