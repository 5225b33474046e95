import { Effect, Fiber } from 'effect'
import { TestClock } from 'effect/testing'
import { describe, expect, it } from 'vitest'
import { noticeDurationMs, WALLET_BOUND_ELSEWHERE_MESSAGE, withErrorPolicy, toId } from '../../../core/index.ts'
import { httpApiHarness } from '../fakes/api-harness.ts'
import { ScriptedWallet } from '../fakes/scripted-wallet.ts'
import { useCasesOver } from '../fakes/use-cases.ts'
import { answer, ok } from '../fakes/fake-http-transport.ts'
import { failure, onTestClock, succeed } from '../fakes/run.ts'
import { CALLS, READS, route, WRITES } from './api-calls.ts'

const me = CALLS.find((c) => c.name === 'me')!
const createMint = CALLS.find((c) => c.name === 'createMint')!

/** What the user noticed: the toasts, the haptics. */
const felt = (h: ReturnType<typeof httpApiHarness>) => ({ toasts: h.notifier.texts, haptics: h.platform.haptics })

describe('the client returns typed errors, and the §8 policy tells them', () => {
  it.each(CALLS)('$name: a 500 from the client alone is a typed ServerFailed, and nobody is told', async (c) => {
    const h = httpApiHarness()
    h.http.on(route(c), answer(500, 'database is down'))

    expect(await failure(c.call(h.raw))).toMatchObject({ _tag: 'ServerFailed', msg: 'database is down' })
    expect(felt(h)).toEqual({ toasts: [], haptics: [] })
  })


  describe('HTTP 500', () => {
    it.each(READS.filter((c) => !c.quiet))('$name resolves with its empty value after an "Error: <msg>" toast', async (c) => {
      const h = httpApiHarness()
      h.http.on(route(c), answer(500, 'database is down'))

      const value = await succeed(c.call(h.api))

      expect(value).toEqual(c.onServerError)
      expect(felt(h)).toEqual({ toasts: ['Error: database is down'], haptics: ['error'] })
    })

    it('the maintenance poll tells it as every error (spec §8) and answers "unknown"', async () => {
      const h = httpApiHarness()
      h.http.on('GET /maintenance/', answer(500, 'database is down'))
      const uc = withErrorPolicy(useCasesOver({ api: h.raw }), { notifier: h.notifier, platform: h.platform })

      expect(await succeed(uc.checkMaintenance())).toBeNull()
      expect(felt(h)).toEqual({ toasts: ['Error: database is down'], haptics: ['error'] })
    })

    it.each(WRITES)('$name fails, so nothing looks done', async (c) => {
      const h = httpApiHarness()
      h.http.on(route(c), answer(500, 'database is down'))

      const error = await failure(c.call(h.api))

      expect(error).toMatchObject({ _tag: 'ServerFailed', msg: 'database is down' })
      expect(felt(h)).toEqual({ toasts: ['Error: database is down'], haptics: ['error'] })
    })
  })

  describe('503: the backend went under maintenance', () => {
    it.each([...READS.filter((c) => !c.quiet && c.name !== 'maintenance'), ...WRITES])(
      '$name fails with UnderMaintenance, tells the app, and shows no toast and no haptic',
      async (c) => {
        let told = 0
        const h = httpApiHarness({ onUnderMaintenance: () => told++ })
        h.http.on(route(c), answer(503, 'We are under maintenance'))

        const error = await failure(c.call(h.api))

        expect(error).toMatchObject({ _tag: 'UnderMaintenance' })
        expect(told).toBe(1)
        expect(felt(h)).toEqual({ toasts: [], haptics: [] })
        expect(h.session.get('auth_token')).toBe('token-1')
      },
    )

    it('without anyone to tell (a CLI), it is reported in words', async () => {
      const h = httpApiHarness()
      h.http.on(route(me), answer(503, 'We are under maintenance'))

      expect(await failure(me.call(h.api))).toMatchObject({ _tag: 'UnderMaintenance' })
      expect(felt(h)).toEqual({ toasts: ['Error: We are under maintenance'], haptics: ['error'] })
    })

    it('another 503 (a proxy that lost the backend) stays a server failure with its toast', async () => {
      let told = 0
      const h = httpApiHarness({ onUnderMaintenance: () => told++ })
      h.http.on(route(me), answer(503, 'Service Unavailable'))

      expect(await succeed(me.call(h.api))).toBeNull()
      expect(told).toBe(0)
      expect(felt(h)).toEqual({ toasts: ['Error: Service Unavailable'], haptics: ['error'] })
    })
  })

  describe('401 and 403', () => {
    it.each([401, 403])('%i shows the server message as is, signs out and rejects', async (status) => {
      const h = httpApiHarness()
      h.session.remove('refresh_token')
      h.http.on(route(me), answer(status, 'Token expired'))

      const error = await failure(me.call(h.api))

      expect(error).toMatchObject({ _tag: 'Unauthorized', status, msg: 'Token expired' })
      expect(felt(h)).toEqual({ toasts: ['Token expired'], haptics: ['error'] })
      expect(h.session.get('auth_token')).toBeNull()
      expect(h.platform.closes).toBe(0)
    })

    it.each([401, 403])("%i with 'Invalid WebApp init data' closes the app", async (status) => {
      const h = httpApiHarness({ signedIn: false })
      h.http.on('POST /auth/register', answer(status, 'Invalid WebApp init data'))

      const error = await failure(h.api.register({ init_data: 'forged', ref_code: null }))

      expect(error).toMatchObject({ _tag: 'Unauthorized', msg: 'Invalid WebApp init data' })
      expect(h.notifier.texts).toEqual(['Invalid WebApp init data'])
      expect(h.platform.closes).toBe(1)
    })

    it('a 403 is not retried through a token refresh', async () => {
      const h = httpApiHarness()
      h.http.on(route(me), answer(403, 'Not a community member'))

      await failure(me.call(h.api))

      expect(h.http.requestsTo('POST /auth/refresh')).toHaveLength(0)
      expect(h.session.get('refresh_token')).toBe('refresh-1')
    })
  })

  it.each([400, 404, 422])('%i shows "Error: <msg>"', async (status) => {
    const h = httpApiHarness()
    h.http.on(route(createMint), answer(status, 'Amount is below the minimum'))

    const error = await failure(createMint.call(h.api))

    expect(error).toMatchObject({ _tag: 'RequestRejected', status, msg: 'Amount is below the minimum' })
    expect(felt(h)).toEqual({ toasts: ['Error: Amount is below the minimum'], haptics: ['error'] })
    expect(h.session.get('auth_token')).toBe('token-1')
  })

  it("a refused wallet bind is told in the wallet's terms: connecting words it (and disconnects)", async () => {
    const bindWallet = CALLS.find((c) => c.name === 'bindWallet')!
    const h = httpApiHarness()
    h.http.on(route(bindWallet), answer(409, 'This wallet is already bound to another account'))
    h.http.on('POST /wallet/ton-proof/payload', ok({ payload: 'ab'.repeat(28) }))
    const wallet = new ScriptedWallet()
    const uc = withErrorPolicy(useCasesOver({ api: h.raw, wallet }), { notifier: h.notifier, platform: h.platform })

    expect(await failure(uc.connectWallet())).toMatchObject({ _tag: 'WalletBoundElsewhere' })
    expect(felt(h)).toEqual({ toasts: [WALLET_BOUND_ELSEWHERE_MESSAGE], haptics: ['error'] })
    expect(wallet.account()).toBeNull()
  })

  it('reads a FastAPI-style detail when there is no msg', async () => {
    const h = httpApiHarness()
    h.http.on(route(createMint), { status: 422, body: { detail: 'days must be one of 30, 60, 90' } })

    await failure(createMint.call(h.api))

    expect(h.notifier.texts).toEqual(['Error: days must be one of 30, 60, 90'])
  })

  it('429 is TooManyRequests, and the user reads the server\'s msg as a toast', async () => {
    const h = httpApiHarness()
    h.http.on(route(createMint), answer(429, 'Too many requests, try again in 12 s'))

    const error = await failure(createMint.call(h.api))

    expect(error).toMatchObject({ _tag: 'TooManyRequests', msg: 'Too many requests, try again in 12 s' })
    expect(felt(h)).toEqual({ toasts: ['Error: Too many requests, try again in 12 s'], haptics: ['error'] })
  })

  it('413 tells the user the file is too large', async () => {
    const h = httpApiHarness()
    h.http.on('POST /task/validate', answer(413, 'Request Entity Too Large'))

    const error = await failure(h.api.validateTask({ task_id: toId(7), photo: 'data:image/png;base64,AAAA' }))

    expect(error).toMatchObject({ _tag: 'PayloadTooLarge' })
    expect(felt(h)).toEqual({ toasts: ['Error: File size is too large! Upload a smaller file.'], haptics: ['error'] })
  })

  it('a network failure shows "Error: Network Error! Code: ERR_NETWORK"', async () => {
    const h = httpApiHarness()
    h.http.on(route(me), 'network-error')

    const error = await failure(me.call(h.api))

    expect(error).toMatchObject({ _tag: 'NetworkError' })
    expect(felt(h)).toEqual({ toasts: ['Error: Network Error! Code: ERR_NETWORK'], haptics: ['error'] })
  })

  it('gives up after 25 s with "Error: Timeout Error!"', async () => {
    const h = httpApiHarness()
    h.http.on(route(me), 'hang')

    const outcome = await onTestClock(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(Effect.result(me.call(h.api)))
        yield* TestClock.adjust('24999 millis')
        const early = fiber.pollUnsafe()
        yield* TestClock.adjust('1 millis')
        return { early, late: yield* Fiber.join(fiber) }
      }),
    )

    expect(outcome.early).toBeUndefined()
    expect(outcome.late).toMatchObject({ _tag: 'Failure', failure: { _tag: 'Timeout', afterMs: 25_000 } })
    expect(felt(h)).toEqual({ toasts: ['Error: Timeout Error!'], haptics: ['error'] })
  })

  it('honours a shorter timeout when one is configured', async () => {
    const h = httpApiHarness({ timeoutMs: 5 })
    h.http.on(route(me), 'hang')

    const error = await failure(me.call(h.api))

    expect(error).toMatchObject({ _tag: 'Timeout', afterMs: 5 })
  })

  describe('a malformed answer', () => {
    it('is a typed MalformedResponse with a toast, not a crash', async () => {
      const h = httpApiHarness()
      h.http.on(route(me), ok({ balance_token: 'lots' }))

      const error = await failure(me.call(h.api))

      expect(error).toMatchObject({ _tag: 'MalformedResponse', path: '/user/me' })
      expect(felt(h)).toEqual({ toasts: ['Error: Unexpected answer from the server'], haptics: ['error'] })
    })

    it('covers an empty body on a call that expects one', async () => {
      const h = httpApiHarness()
      h.http.on('GET /mint/', { status: 200, body: null })

      expect(await failure(h.api.mints())).toMatchObject({ _tag: 'MalformedResponse', path: '/mint/' })
    })

    it('covers an HTML error page: the status still decides the message', async () => {
      const h = httpApiHarness()
      h.http.on(route(createMint), { status: 502, body: '<html>Bad Gateway</html>' })

      await failure(createMint.call(h.api))

      expect(h.notifier.texts).toEqual(['Error: Request failed with status code 502'])
    })
  })

  it('every error toast lasts 3 s', async () => {
    const h = httpApiHarness()
    h.http.on(route(me), answer(404, 'User not found'))

    await failure(me.call(h.api))

    expect(h.notifier.notices).toEqual([{ tag: 'error', error: expect.objectContaining({ _tag: 'RequestRejected' }) }])
    expect(noticeDurationMs(h.notifier.notices[0]!)).toBe(3000)
  })
})
