import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NO_PAYOUT_LIMITS } from '../../server/config/config.ts'
import { holdOverLimits } from '../../server/domain/sale-payouts.ts'
import { call, SOME_ADDRESS, startTestServer, type TestServer } from './support.ts'

/**
 * A sale over a payout limit is `held` for the operator: `GET /withdraw/history` shows it `pending`
 * (the status every app decodes) with `under_review: true`, and no other sale carries the field.
 * The sale is held by the payout pass's own step (holdOverLimits with the server's configured limits).
 */
let ts: TestServer
const TON = 1_000_000_000n

beforeAll(async () => {
  ts = await startTestServer({ payoutLimits: { ...NO_PAYOUT_LIMITS, maxSaleNano: TON } })
})
afterAll(async () => {
  await ts?.close()
})

describe('GET /withdraw/history: a held sale is under review', () => {
  it('a held sale has status pending and under_review true; an ordinary one has no under_review at all', async () => {
    const user = await ts.login(8101)
    await ts.server.admin.credit(8101, '100000')
    const quote = async (tokens: string) => (await user.call('GET', '/withdraw/calculate', { query: { token_amount: tokens } })).body
    // The small sale pays under 1 TON, the big one over it.
    let small = '1'
    while (Number((await quote(small)).amount_ton) >= 1) small = String(Number(small) / 10)
    let large = '10'
    while (Number((await quote(large)).amount_ton) <= 1) large = String(Number(large) * 10)
    const create = async (tokens: string) => {
      const res = await user.call('POST', '/withdraw/create', { body: { from_ref_balance: false, token_amount: tokens, address: SOME_ADDRESS } })
      expect(res.status).toBe(200)
      expect(res.body).not.toHaveProperty('under_review')
      return res.body.id as number
    }
    const ordinary = await create(small)
    const over = await create(large)

    const held = await holdOverLimits(ts.server.ctx, ts.server.ctx.config.payoutLimits)
    expect(held.map((h) => Number(h.id))).toEqual([over])

    // Raw HTTP: the JSON as the app receives it.
    const url = new URL(`${ts.url}/api/withdraw/history`)
    const raw = await fetch(url, { headers: { authorization: `Bearer ${user.token}` } })
    expect(raw.status).toBe(200)
    const body = JSON.parse(await raw.text()) as { items: Array<Record<string, unknown>> }
    const row = (id: number) => body.items.find((w) => w.id === id)!
    expect(row(over)).toMatchObject({ status: 'pending', under_review: true })
    expect(row(ordinary).status).toBe('pending')
    expect(Object.keys(row(ordinary))).not.toContain('under_review')
    // The held reason (the operator's words) never reaches the user.
    expect(JSON.stringify(body)).not.toMatch(/per-sale limit/)
    // Another user sees neither.
    const other = await ts.login(8102)
    expect((await call(ts.url, 'GET', '/withdraw/history', { token: other.token })).body.items).toEqual([])
  })
})
