import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SOME_ADDRESS, startTestServer, TEST_ENGINE, type TestServer } from './support.ts'

/**
 * Attack-style races: many requests at once against one balance or one link. Whatever the engine
 * (SQLite one writer, PostgreSQL serialisable transactions), the money adds up and nothing is used twice.
 */
let t: TestServer
beforeAll(async () => {
  t = await startTestServer({ welcomeBalanceNano: 0n })
})
afterAll(() => t.close())

const conserved = async () => {
  const l = await t.server.admin.ledger()
  expect(l.balances + l.locked + l.withdrawals + l.linkFunds + l.penalties).toBe(l.credited)
}

describe(`races (${TEST_ENGINE})`, () => {
  it('runs on the engine the project names', () => {
    expect(t.server.ctx.engine.dialect).toBe(TEST_ENGINE)
  })

  it('50 concurrent sales of 5 over a balance of 100: exactly 20 are made, the balance ends at 0', async () => {
    const s = await t.login(7001)
    await t.server.admin.credit(7001, '100')
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        s.call('POST', '/withdraw/create', {
          body: { from_ref_balance: false, token_amount: 5, address: SOME_ADDRESS },
          headers: { 'idempotency-key': `sale-${i}` },
        }),
      ),
    )
    const made = replies.filter((r) => r.status === 200)
    expect(made).toHaveLength(20)
    // Every other answer is the refusal a person reads, never a server error.
    for (const r of replies.filter((r) => r.status !== 200)) expect(r).toMatchObject({ status: 400, body: { msg: expect.stringMatching(/^Insufficient balance/) } })
    expect(new Set(made.map((r) => r.body.id)).size).toBe(20)
    expect((await s.call('GET', '/user/me')).body.balance_token).toBe('0')
    expect((await s.call('GET', '/withdraw/history', { query: { limit: 100 } })).body.total).toBe(20)
    await conserved()
  })

  it('a single-use link opened by 20 users at once gives one bond, to one of them', async () => {
    const owner = await t.login(7100)
    await t.server.admin.credit(7100, '30', 'referral_balance')
    const created = await owner.call('POST', '/farming/create', {
      body: { amount: 10, days: 10, count_activations: 1, from_ref_balance: true, from_task_balance: false, is_multilink: false, is_for_me: false },
    })
    expect(created.status).toBe(200)
    const code = created.body.activation_code as string
    const users = await Promise.all(Array.from({ length: 20 }, (_, i) => t.login(7101 + i)))
    const replies = await Promise.all(users.map((u) => u.call('GET', '/farming/activation-status', { query: { activation_code: code } })))
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200))
    const winners = replies.filter((r) => r.body.status === 'ACTIVE')
    expect(winners).toHaveLength(1)
    expect(replies.filter((r) => r.body.status === 'REACHED')).toHaveLength(19)
    const bonds = await Promise.all(users.map(async (u) => (await u.call('GET', '/mint/')).body.total as number))
    expect(bonds.reduce((a, b) => a + b, 0)).toBe(1)
    expect((await owner.call('GET', '/farming/')).body.items[0]).toMatchObject({ used_activations: 1, status: 'reached' })
    expect((await owner.call('GET', '/user/me')).body.referral_balance).toBe('20')
    await conserved()
  })

  it('20 concurrent transfers and sales from one referral balance never overdraw it', async () => {
    const s = await t.login(7200)
    await t.server.admin.credit(7200, '50', 'referral_balance')
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? s.call('POST', '/withdraw/transfer-from-referral-balance', { body: { token_amount: 5 }, headers: { 'idempotency-key': `t-${i}` } })
          : s.call('POST', '/withdraw/create', {
              body: { from_ref_balance: true, token_amount: 5, address: SOME_ADDRESS },
              headers: { 'idempotency-key': `w-${i}` },
            }),
      ),
    )
    expect(replies.filter((r) => r.status === 200)).toHaveLength(10)
    expect(replies.every((r) => r.status === 200 || r.status === 400)).toBe(true)
    expect((await s.call('GET', '/user/me')).body.referral_balance).toBe('0')
    await conserved()
  })
})
