import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SOME_ADDRESS, startTestServer, type Session, type TestServer } from './support.ts'

let t: TestServer
beforeAll(async () => {
  t = await startTestServer()
})
afterAll(() => t.close())

const count = async (table: string) => Number((await t.server.ctx.db.one<{ n: bigint }>(`SELECT COUNT(*) AS n FROM ${table}`))!.n)

/** Every create, with a body that succeeds for a user holding the welcome balance and funded main and referral balances. */
const creates = (s: Session, mintId: number) => [
  { path: '/mint/create', body: { amount: 5, days: 10 }, table: 'mints' },
  { path: '/withdraw/create', body: { from_ref_balance: false, token_amount: 2, address: SOME_ADDRESS }, table: 'withdrawals' },
  {
    path: '/farming/create',
    body: { amount: 1, days: 10, count_activations: 2, from_ref_balance: true, from_task_balance: false, is_multilink: true, is_for_me: false },
    table: 'farming_links',
  },
  { path: '/withdraw/transfer-from-referral-balance', body: { token_amount: 1 }, table: 'operations' },
  { path: '/staking/create', body: { mint_id: mintId }, table: 'stakes' },
]

const freshUser = async (id: number) => {
  const s = await t.login(id)
  await t.server.admin.credit(id, '50', 'referral_balance')
  await t.server.admin.credit(id, '50', 'balance_token')
  const mint = (await s.call('POST', '/mint/create', { body: { amount: 3, days: 30 } })).body.mint.id as number
  await t.server.markMintPaid(mint)
  return { s, mint }
}

describe('idempotent creates', () => {
  it('the same Idempotency-Key twice has one effect and answers the same', async () => {
    const { s, mint } = await freshUser(4001)
    for (const c of creates(s, mint)) {
      const before = await count(c.table)
      const a = await s.call('POST', c.path, { body: c.body, headers: { 'idempotency-key': `key-${c.path}` } })
      const b = await s.call('POST', c.path, { body: c.body, headers: { 'idempotency-key': `key-${c.path}` } })
      expect(a.status, c.path).toBe(200)
      expect(b.body).toEqual(a.body)
      expect(b.headers.get('idempotent-replayed')).toBe('true')
      expect((await count(c.table)) - before, c.path).toBe(c.table === 'operations' ? 2 : 1)
    }
  })

  it('a key reused with another body is refused', async () => {
    const { s } = await freshUser(4002)
    await s.call('POST', '/mint/create', { body: { amount: 5, days: 10 }, headers: { 'idempotency-key': 'same' } })
    const other = await s.call('POST', '/mint/create', { body: { amount: 6, days: 10 }, headers: { 'idempotency-key': 'same' } })
    expect(other.status).toBe(422)
  })

  it('without a key, a double submit within the window has one effect; later it is a new request', async () => {
    const { s, mint } = await freshUser(4003)
    for (const c of creates(s, mint)) {
      const before = await count(c.table)
      const [a, b] = await Promise.all([s.call('POST', c.path, { body: c.body }), s.call('POST', c.path, { body: c.body })])
      expect(a.status, c.path).toBe(200)
      expect(b.body, c.path).toEqual(a.body)
      expect((await count(c.table)) - before, c.path).toBe(c.table === 'operations' ? 2 : 1)
    }
    t.clock.advance(10)
    const again = await s.call('POST', '/mint/create', { body: { amount: 5, days: 10 } })
    expect(again.status).toBe(200)
    expect(await count('mints')).toBeGreaterThan(0)
  })

  it('concurrent submits with one key have one effect', async () => {
    const { s } = await freshUser(4004)
    const before = await count('withdrawals')
    const body = { from_ref_balance: true, token_amount: 5, address: SOME_ADDRESS }
    const replies = await Promise.all(
      Array.from({ length: 8 }, () => s.call('POST', '/withdraw/create', { body, headers: { 'idempotency-key': 'burst' } })),
    )
    expect(new Set(replies.map((r) => JSON.stringify(r.body))).size).toBe(1)
    expect((await count('withdrawals')) - before).toBe(1)
    expect((await s.call('GET', '/user/me')).body.referral_balance).toBe('45')
  })

  it('keys are per user: another user with the same key gets its own effect', async () => {
    const a = await freshUser(4005)
    const b = await freshUser(4006)
    const ra = await a.s.call('POST', '/mint/create', { body: { amount: 5, days: 10 }, headers: { 'idempotency-key': 'shared' } })
    const rb = await b.s.call('POST', '/mint/create', { body: { amount: 5, days: 10 }, headers: { 'idempotency-key': 'shared' } })
    expect(ra.body.mint.id).not.toBe(rb.body.mint.id)
  })
})
