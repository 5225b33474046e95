import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SOME_ADDRESS, startTestServer, type Session, type TestServer } from './support.ts'

let t: TestServer
beforeAll(async () => {
  t = await startTestServer()
})
afterAll(() => t.close())

type Op =
  | { kind: 'credit'; who: number; amount: string; column: 'balance_token' | 'referral_balance' | 'task_balance' }
  | { kind: 'transfer'; who: number; amount: string }
  | { kind: 'withdraw'; who: number; amount: string; fromRef: boolean }
  | { kind: 'link'; who: number; amount: string; count: number; from: 'main' | 'ref' | 'task' }
  | { kind: 'cancelLink'; who: number; nth: number }
  | { kind: 'activate'; who: number; nth: number }
  | { kind: 'bond'; who: number; amount: string; pay: boolean }
  | { kind: 'cancelBond'; who: number; nth: number }
  | { kind: 'stake'; who: number; nth: number }
  | { kind: 'wait'; seconds: number }

const amount = fc.tuple(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 999_999_999 })).map(([w, f]) => `${w}.${String(f).padStart(9, '0')}`)
const who = fc.integer({ min: 0, max: 2 })
const nth = fc.nat(5)
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('credit' as const), who, amount, column: fc.constantFrom('balance_token' as const, 'referral_balance' as const, 'task_balance' as const) }),
  fc.record({ kind: fc.constant('transfer' as const), who, amount }),
  fc.record({ kind: fc.constant('withdraw' as const), who, amount, fromRef: fc.boolean() }),
  fc.record({ kind: fc.constant('link' as const), who, amount, count: fc.integer({ min: 1, max: 3 }), from: fc.constantFrom('main' as const, 'ref' as const, 'task' as const) }),
  fc.record({ kind: fc.constant('cancelLink' as const), who, nth }),
  fc.record({ kind: fc.constant('activate' as const), who, nth }),
  fc.record({ kind: fc.constant('bond' as const), who, amount, pay: fc.boolean() }),
  fc.record({ kind: fc.constant('bond' as const), who, amount, pay: fc.constant(true) }),
  fc.record({ kind: fc.constant('cancelBond' as const), who, nth }),
  fc.record({ kind: fc.constant('stake' as const), who, nth }),
  fc.record({ kind: fc.constant('wait' as const), seconds: fc.integer({ min: 1, max: 40 * 86_400 }) }),
)

let nextTelegramId = 7000
const succeeded = new Set<string>()

const run = async (ops: Op[]) => {
  const ids = [nextTelegramId++, nextTelegramId++, nextTelegramId++]
  let sessions: Session[] = []
  let loggedAt = -Infinity
  const session = async (i: number): Promise<Session> => {
    if (t.clock.now - loggedAt > 600) {
      sessions = []
      for (const id of ids) sessions.push(await t.login(id))
      loggedAt = t.clock.now
    }
    return sessions[i]!
  }
  await session(0)
  for (const id of ids)
    for (const column of ['referral_balance', 'task_balance'] as const) await t.server.admin.credit(id, '100', column)
  const links: string[] = []
  const linkIds: number[] = []
  const mints: number[][] = [[], [], []]
  for (const o of ops) {
    if (o.kind === 'wait') {
      t.clock.advance(o.seconds)
      await t.server.admin.settleAll()
      continue
    }
    const s = await session(o.who)
    let res
    switch (o.kind) {
      case 'credit':
        await t.server.admin.credit(ids[o.who]!, o.amount, o.column)
        continue
      case 'transfer':
        res = await s.call('POST', '/withdraw/transfer-from-referral-balance', { body: { token_amount: o.amount } })
        break
      case 'withdraw':
        res = await s.call('POST', '/withdraw/create', { body: { from_ref_balance: o.fromRef, token_amount: o.amount, address: SOME_ADDRESS } })
        break
      case 'link':
        res = await s.call('POST', '/farming/create', {
          body: { amount: o.amount, days: 10, count_activations: o.count, from_ref_balance: o.from === 'ref', from_task_balance: o.from === 'task', is_multilink: o.count > 1, is_for_me: false },
        })
        if (res.status === 200) {
          links.push(res.body.activation_code)
          linkIds.push(res.body.id)
        }
        break
      case 'cancelLink':
        if (linkIds.length) res = await s.call('POST', `/farming/${linkIds[o.nth % linkIds.length]}/cancel`)
        break
      case 'activate':
        if (links.length) res = await s.call('GET', '/farming/activation-status', { query: { activation_code: links[o.nth % links.length]! } })
        break
      case 'bond':
        res = await s.call('POST', '/mint/create', { body: { amount: o.amount, days: 10 } })
        if (res.status === 200) {
          mints[o.who]!.push(res.body.mint.id)
          if (o.pay) await t.server.markMintPaid(res.body.mint.id)
        }
        break
      case 'cancelBond':
      case 'stake': {
        const mine = mints[o.who]!
        if (!mine.length) break
        const id = mine[o.nth % mine.length]
        res =
          o.kind === 'stake'
            ? await s.call('POST', '/staking/create', { body: { mint_id: id } })
            : await s.call('POST', `/mint/${id}/cancel`)
        break
      }
    }
    if (res) expect(res.status, JSON.stringify(res.body)).toBeLessThan(500)
    if (res?.status === 200) succeeded.add(o.kind)
  }
}

const perUserLedger = () =>
  t.server.ctx.db.all<Record<string, bigint>>(
      `SELECT u.id, u.balance_token, u.task_balance, u.referral_balance,
         (SELECT COALESCE(SUM(amount), 0) FROM operations o WHERE o.user_id = u.id AND o.balance = 'balance_token') AS ops_main,
         (SELECT COALESCE(SUM(amount), 0) FROM operations o WHERE o.user_id = u.id AND o.balance = 'task_balance') AS ops_task,
         (SELECT COALESCE(SUM(amount), 0) FROM operations o WHERE o.user_id = u.id AND o.balance = 'referral_balance') AS ops_ref
       FROM users u`,
    )

describe('conservation of tokens', () => {
  it('credited = balances + locked principal + reserved withdrawals + link funds + penalties, after any sequence', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 20 }), async (ops) => {
        await run(ops)
        const l = await t.server.admin.ledger()
        expect(l.balances + l.locked + l.withdrawals + l.linkFunds + l.penalties).toBe(l.credited)
        // The running totals of /stats/financial follow every one of these writes.
        expect(await t.server.admin.verifyTotals()).toEqual([])
        for (const u of await perUserLedger()) {
          expect(u.balance_token).toBe(u.ops_main)
          expect(u.task_balance).toBe(u.ops_task)
          expect(u.referral_balance).toBe(u.ops_ref)
        }
      }),
      { numRuns: 40 },
    )
    // The sequences did exercise the moves, not just their refusals.
    expect([...succeeded].sort()).toEqual(['activate', 'bond', 'cancelBond', 'cancelLink', 'link', 'stake', 'transfer', 'withdraw'])
  })
})
