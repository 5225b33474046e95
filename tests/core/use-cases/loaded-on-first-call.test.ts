import { Effect } from 'effect'
import { describe, expect, it } from 'vitest'
import { InvalidInput, NetworkError } from '../../../core/index.ts'
import { loadedOnFirstCall } from '../../../core/use-cases/loaded-on-first-call.ts'
import { failure, succeed } from '../fakes/run.ts'

/** A module load the test settles by hand, counting how often it was asked for. */
const moduleLoads = () => {
  const loads: { resolve: (useCase: (n: number) => Effect.Effect<number, InvalidInput>) => void; reject: (e: unknown) => void }[] = []
  const load = () =>
    new Promise<(n: number) => Effect.Effect<number, InvalidInput>>((resolve, reject) => {
      loads.push({ resolve, reject })
    })
  return { loads, load }
}
const double = (n: number) => (n < 0 ? Effect.fail(new InvalidInput({ field: 'n', msg: 'negative' })) : Effect.succeed(n * 2))

describe('a use case loaded on its first call', () => {
  it('loads nothing until it is called, then once for every call after, concurrent ones too', async () => {
    const { loads, load } = moduleLoads()
    const useCase = loadedOnFirstCall(load)
    const pending = useCase(2)
    expect(loads).toHaveLength(0)
    const first = succeed(pending)
    const second = succeed(useCase(5))
    await Promise.resolve()
    expect(loads).toHaveLength(1)
    loads[0]!.resolve(double)
    expect(await Promise.all([first, second])).toEqual([4, 10])
    expect(await succeed(useCase(7))).toBe(14)
    expect(loads).toHaveLength(1)
  })

  it('passes the use case’s own typed failures through', async () => {
    const useCase = loadedOnFirstCall(() => Promise.resolve(double))
    expect(await failure(useCase(-1))).toEqual(new InvalidInput({ field: 'n', msg: 'negative' }))
  })

  it('fails with NetworkError when its code cannot load, and loads again on the next call', async () => {
    const { loads, load } = moduleLoads()
    const useCase = loadedOnFirstCall(load)
    const refused = failure(useCase(1))
    await Promise.resolve()
    loads[0]!.reject(new TypeError('Failed to fetch dynamically imported module'))
    const error = await refused
    expect(error).toBeInstanceOf(NetworkError)
    const retried = succeed(useCase(3))
    await Promise.resolve()
    expect(loads).toHaveLength(2)
    loads[1]!.resolve(double)
    expect(await retried).toBe(6)
  })
})
