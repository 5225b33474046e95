import { describe, expect, it } from 'vitest'
import { httpApiHarness } from '../fakes/api-harness.ts'
import { ok } from '../fakes/fake-http-transport.ts'
import { succeed } from '../fakes/run.ts'
import { CALLS, route } from './api-calls.ts'
import { toId } from '../../../core/index.ts'

describe('makeHttpAxiomApi: the §7 calls', () => {
  it('covers all 34 calls of the API port', () => {
    expect(new Set(CALLS.map((c) => c.name)).size).toBe(34)
  })

  it.each(CALLS)('$name sends its method, path, query and body', async (c) => {
    const { api, http } = httpApiHarness()
    http.on(route(c), ok(c.reply))

    await succeed(c.call(api))

    expect(http.requests).toHaveLength(1)
    const { bearer, idempotencyKey, ...sent } = http.requests[0]!
    expect(sent).toEqual(c.request)
    expect(idempotencyKey).toBeUndefined()
    if (c.bearer === 'yes') expect(bearer).toBe('token-1')
    if (c.bearer === 'no') expect(bearer).toBeUndefined()
  })

  it('asks for other pages and sizes when given', async () => {
    const { api, http } = httpApiHarness()
    http.on('GET /mint/', ok({ items: [], total: 0 }))
    http.on('GET /withdraw/history', ok({ items: [], total: 0 }))

    await succeed(api.mints({ page: 3, limit: 20 }))
    await succeed(api.withdrawHistory({ page: 2, limit: 10, sort_order: 'asc' }))

    expect(http.requests.map((r) => r.query)).toEqual([
      { page: 3, limit: 20 },
      { page: 2, limit: 10, sort_by: 'created_at', sort_order: 'asc' },
    ])
  })

  it('sends no Authorization header when nobody is signed in', async () => {
    const { api, http } = httpApiHarness({ signedIn: false })
    http.on('GET /price/current-price', ok({ price: 1, price_change_24h: 0, price_change_30d: 0 }))

    await succeed(api.currentPrice())

    expect(http.requests[0]!.bearer).toBeUndefined()
  })

  it('reads the decimal strings the backend sends as numbers', async () => {
    const { api, http } = httpApiHarness()
    http.on('GET /user/me', ok({ ...CALLS.find((c) => c.name === 'me')!.reply as object, balance_token: '1234.56', referral_balance: '0.000000001' }))

    const user = await succeed(api.me())

    expect(user?.balance_token).toBe(1234.56)
    expect(user?.referral_balance).toBe(1e-9)
  })

  it('passes the Idempotency-Key on every create, and only when one is given', async () => {
    const { api, http } = httpApiHarness()
    const creates = CALLS.filter((c) => ['createMint', 'createStake', 'createFarmingLink', 'createWithdraw', 'transferFromReferral'].includes(c.name))
    for (const c of creates) http.on(route(c), ok(c.reply))
    const key = { idempotencyKey: 'key-1' }

    await succeed(api.createMint({ amount: 100, days: 30 }, key))
    await succeed(api.createStake({ mint_id: toId(5) }, key))
    await succeed(api.createFarmingLink(creates[2]!.request.body as never, key))
    await succeed(api.createWithdraw(creates[3]!.request.body as never, key))
    await succeed(api.transferFromReferral({ token_amount: 20 }, key))
    await succeed(api.createMint({ amount: 100, days: 30 }))

    expect(http.requests.map((r) => r.idempotencyKey)).toEqual(['key-1', 'key-1', 'key-1', 'key-1', 'key-1', undefined])
  })
})
