import { Effect } from 'effect'
import { TestClock } from 'effect/testing'

/** Runs an effect that must succeed. */
export const succeed = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => Effect.runPromise(effect)

/** Runs an effect that must fail, and gives its typed error. */
export const failure = async <A, E>(effect: Effect.Effect<A, E>): Promise<E> => {
  const result = await Effect.runPromise(Effect.result(effect))
  if (result._tag === 'Success') throw new Error(`expected a failure, got ${JSON.stringify(result.success)}`)
  return result.failure
}

/** Runs a test program on a TestClock: fork the effect under test, then move time with TestClock.adjust. */
export const onTestClock = <A, E>(program: Effect.Effect<A, E>): Promise<A> =>
  Effect.runPromise(Effect.provide(program, TestClock.layer()))
