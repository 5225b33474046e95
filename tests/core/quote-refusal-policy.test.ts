import { Effect } from 'effect'
import { describe, expect, it } from 'vitest'
import { type AppError, toId, withErrorPolicy } from '../../core/index.ts'
import { httpApiHarness } from './fakes/api-harness.ts'
import { answer } from './fakes/fake-http-transport.ts'
import { failure } from './fakes/run.ts'
import { useCasesOver } from './fakes/use-cases.ts'

type Uc = ReturnType<typeof useCasesOver>

/** Each quote, the route it asks, and how the screen asks it. */
const QUOTES: ReadonlyArray<{ name: string; route: string; call: (uc: Uc) => Effect.Effect<unknown, AppError> }> = [
  { name: 'quoteBond', route: 'GET /mint/calculate', call: (uc) => uc.quoteBond(0.5, 30) },
  { name: 'quoteFarming', route: 'GET /farming/calculate', call: (uc) => uc.quoteFarming(0.5, 30, 'main') },
  { name: 'quoteSale', route: 'GET /withdraw/calculate', call: (uc) => uc.quoteSale(0.5) },
  { name: 'quoteStake', route: 'GET /staking/calculate', call: (uc) => uc.quoteStake(toId(5)) },
]

const policed = () => {
  const h = httpApiHarness()
  const uc = withErrorPolicy(useCasesOver({ api: h.raw }), { notifier: h.notifier, platform: h.platform })
  return { h, uc }
}

describe("the §8 policy leaves a quote's refusal to be shown in place", () => {
  it.each(QUOTES.flatMap((q) => [400, 404, 422].map((status) => ({ ...q, status }))))(
    '$name refused with $status: no toast, no haptic, and the refusal comes back with its words',
    async (q) => {
      const { h, uc } = policed()
      h.http.on(q.route, answer(q.status, 'amount must be at least 1'))

      expect(await failure(q.call(uc))).toMatchObject({ _tag: 'RequestRejected', msg: 'amount must be at least 1' })
      expect(h.notifier.texts).toEqual([])
      expect(h.platform.haptics).toEqual([])
    },
  )

  it.each(QUOTES)('$name that never reached the server is still a toast with the error haptic', async (q) => {
    const { h, uc } = policed()
    h.http.on(q.route, 'network-error')

    expect(await failure(q.call(uc))).toMatchObject({ _tag: 'NetworkError' })
    expect(h.notifier.texts).toHaveLength(1)
    expect(h.platform.haptics).toEqual(['error'])
  })

  it.each(QUOTES)('$name the server failed with a 500 is still a toast', async (q) => {
    const { h, uc } = policed()
    h.http.on(q.route, answer(500, 'database is down'))

    await Effect.runPromise(Effect.result(q.call(uc)))
    expect(h.notifier.texts).toEqual(['Error: database is down'])
  })

  it.each(QUOTES)('$name refused for too many requests (429) is a toast: the user must know to wait', async (q) => {
    const { h, uc } = policed()
    h.http.on(q.route, answer(429, 'Too many requests, try again in 3 s'))

    expect(await failure(q.call(uc))).toMatchObject({ _tag: 'TooManyRequests' })
    expect(h.notifier.texts).toEqual(['Error: Too many requests, try again in 3 s'])
    expect(h.platform.haptics).toEqual(['error'])
  })

  it('a refused write is still a toast: only the quotes are answered in place', async () => {
    const { h, uc } = policed()
    h.http.on('POST /mint/create', answer(422, 'amount must be at least 1'))

    await failure(uc.orderBond(0.5, 30))
    expect(h.notifier.texts).toEqual(['Error: amount must be at least 1'])
    expect(h.platform.haptics).toEqual(['error'])
  })
})
