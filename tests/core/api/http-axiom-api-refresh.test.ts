import { Effect } from 'effect'
import { describe, expect, it } from 'vitest'
import type { HttpRequest } from '../../../core/index.ts'
import { httpApiHarness } from '../fakes/api-harness.ts'
import { answer, ok } from '../fakes/fake-http-transport.ts'
import { failure, succeed } from '../fakes/run.ts'

/** A server that honours only 'token-2'. */
const onlyNewToken = (body: unknown) => (req: HttpRequest) => (req.bearer === 'token-2' ? ok(body) : answer(401, 'Token expired'))

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((r) => setImmediate(r))
  if (!condition()) throw new Error('condition never became true')
}

describe('makeHttpAxiomApi: an expired token', () => {
  it('is refreshed once for all the calls that hit 401 meanwhile, which then succeed with the new token', async () => {
    const h = httpApiHarness()
    let releaseRefresh = () => {}
    const refreshed = new Promise<void>((resolve) => (releaseRefresh = resolve))
    h.http
      .on('GET /user/referrals', onlyNewToken({ items: [], total: 0 }))
      .on('GET /task/list', onlyNewToken([]))
      .on('GET /price/current-price', onlyNewToken({ price: 1, price_change_24h: 0, price_change_30d: 0 }))
      .on('POST /auth/refresh', () => Effect.promise(() => refreshed).pipe(Effect.as(ok({ token: 'token-2', refresh: 'refresh-2' }))))

    const all = succeed(Effect.all([h.api.referrals(), h.api.tasks(), h.api.currentPrice()], { concurrency: 'unbounded' }))
    await until(() => h.http.requests.filter((r) => r.method === 'GET' && r.bearer === 'token-1').length === 3)
    releaseRefresh()
    const [referrals, tasks, price] = await all

    expect(referrals).toEqual({ items: [], total: 0 })
    expect(tasks).toEqual([])
    expect(price).toMatchObject({ price: 1 })
    const refreshes = h.http.requestsTo('POST /auth/refresh')
    expect(refreshes).toHaveLength(1)
    expect(refreshes[0]!.body).toMatchObject({ refresh_token: 'refresh-1' })
    // Spec §3: the refresh is no exception to the Bearer header; it carries the expired token.
    expect(refreshes[0]!.bearer).toBe('token-1')
    expect(h.http.requests.filter((r) => r.bearer === 'token-2')).toHaveLength(3)
    expect(h.session.get('auth_token')).toBe('token-2')
    expect(h.session.get('refresh_token')).toBe('refresh-2')
    expect(h.notifier.texts).toEqual([])
    expect(h.platform.haptics).toEqual([])
  })

  it('a call whose 401 arrives after another call already refreshed retries with the new token, without a second refresh', async () => {
    const h = httpApiHarness()
    h.http
      .on('GET /user/me', (req: HttpRequest) => {
        // The token is rotated by someone else while this request is in flight.
        h.session.set('auth_token', 'token-2')
        return req.bearer === 'token-2' ? ok({ detail: 'x' }) : answer(401, 'Token expired')
      })
      .on('GET /maintenance/', ok({ detail: 'Maintenance mode is disabled' }))
    const calls: string[] = []
    h.http.on('POST /auth/refresh', () => {
      calls.push('refresh')
      return Effect.succeed(answer(401, 'no'))
    })

    await Effect.runPromise(Effect.result(h.api.me()))

    expect(calls).toEqual([])
    expect(h.http.requestsTo('GET /user/me').map((r) => r.bearer)).toEqual(['token-1', 'token-2'])
  })

  it('a refused refresh token comes back typed and untold: signing in goes on to the init data', async () => {
    const h = httpApiHarness()
    h.http.on('POST /auth/refresh', answer(401, 'Refresh token reused'))

    const error = await failure(h.raw.refresh('refresh-1'))

    expect(error).toMatchObject({ _tag: 'Unauthorized' })
    expect(h.notifier.texts).toEqual([])
  })

  it('that cannot be refreshed clears the refresh token and signs the user out with one toast', async () => {
    const h = httpApiHarness()
    h.http.on('GET /user/me', answer(401, 'Token expired')).on('POST /auth/refresh', answer(401, 'Refresh token expired'))

    const error = await failure(h.api.me())

    expect(error).toMatchObject({ _tag: 'Unauthorized', msg: 'Token expired' })
    expect(h.session.get('refresh_token')).toBeNull()
    expect(h.session.get('auth_token')).toBeNull()
    expect(h.notifier.texts).toEqual(['Token expired'])
    expect(h.platform.haptics).toEqual(['error'])
  })

  it('is not refreshed when there is no refresh token', async () => {
    const h = httpApiHarness()
    h.session.remove('refresh_token')
    h.http.on('GET /user/me', answer(401, 'Token expired'))

    await failure(h.api.me())

    expect(h.http.requestsTo('POST /auth/refresh')).toHaveLength(0)
  })

  it('a refresh that answers garbage counts as failed', async () => {
    const h = httpApiHarness()
    h.http.on('GET /user/me', answer(401, 'Token expired')).on('POST /auth/refresh', ok({ token: 42 }))

    await failure(h.api.me())

    expect(h.session.get('refresh_token')).toBeNull()
    expect(h.session.get('auth_token')).toBeNull()
  })

  it('a registration that hits 401 is not retried through a refresh', async () => {
    const h = httpApiHarness()
    h.http.on('POST /auth/register', answer(401, 'Bad signature'))

    await failure(h.api.register({ init_data: 'x', ref_code: null }))

    expect(h.http.requestsTo('POST /auth/refresh')).toHaveLength(0)
    expect(h.session.get('refresh_token')).toBe('refresh-1')
  })
})
