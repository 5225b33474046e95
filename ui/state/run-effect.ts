import { Effect, type Result } from 'effect'

/** Runs a use case and gives back its success or typed failure, never a thrown error. */
export const runResult = <A, E>(effect: Effect.Effect<A, E>): Promise<Result.Result<A, E>> =>
  Effect.runPromise(Effect.result(effect))

/** The server's words when it refused a request (400/404/422), which a quote's screen shows in place. */
export const refusalOf = <A, E>(r: Result.Result<A, E>): string | null => {
  if (r._tag !== 'Failure') return null
  const e = r.failure as { readonly _tag?: unknown; readonly msg?: unknown }
  return e._tag === 'RequestRejected' && typeof e.msg === 'string' ? e.msg : null
}
