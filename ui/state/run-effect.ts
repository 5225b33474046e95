import { Effect, type Result } from 'effect'

/** Runs a use case and gives back its success or typed failure, never a thrown error. */
export const runResult = <A, E>(effect: Effect.Effect<A, E>): Promise<Result.Result<A, E>> =>
  Effect.runPromise(Effect.result(effect))

/** A fresh idempotency key for one user intent (a form submission). */
export const newIdempotencyKey = (): string => globalThis.crypto.randomUUID()
