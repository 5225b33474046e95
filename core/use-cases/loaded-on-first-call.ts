import { Effect } from 'effect'
import { NetworkError } from '../errors.ts'

/** Any use case: whatever its parameters, it answers an Effect that needs no services. */
type UseCase = (...args: never[]) => Effect.Effect<unknown, unknown>

/**
 * A use case whose code loads on its first call rather than with the core: `load` imports its module
 * and binds it to its ports, once. A browser's first paint then carries none of the code of the
 * screens and steps a user reaches later (the bond payment, selling, farming links, tasks,
 * referrals); a CLI or a bot loads it the same way. A module that cannot load (the network, in a
 * browser) fails the call with NetworkError, which the §8 policy tells as any other, and the next
 * call tries the load again.
 */
export const loadedOnFirstCall = <F extends UseCase>(
  load: () => Promise<F>,
): ((...args: Parameters<F>) => Effect.Effect<Effect.Success<ReturnType<F>>, Effect.Error<ReturnType<F>> | NetworkError>) => {
  let loading: Promise<F> | undefined
  // A load that failed is forgotten, so that the next call tries again.
  const loaded = (): Promise<F> =>
    (loading ??= load().catch((cause: unknown) => {
      loading = undefined
      throw cause
    }))
  return (...args) =>
    Effect.tryPromise({ try: loaded, catch: (cause) => new NetworkError({ cause }) }).pipe(
      Effect.flatMap((useCase) => useCase(...args) as Effect.Effect<Effect.Success<ReturnType<F>>, Effect.Error<ReturnType<F>>>),
    )
}
