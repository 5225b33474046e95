import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signInitData, SOME_ADDRESS, startTestServer, type Reply, type Session, type TestServer } from './support.ts'

let t: TestServer
let u: Session
let pendingMint = 0

beforeAll(async () => {
  t = await startTestServer()
  u = await t.login(6001)
  await t.server.admin.credit(6001, '20', 'referral_balance')
  const active = (await u.call('POST', '/mint/create', { body: { amount: 5, days: 30 } })).body.mint.id
  await t.server.markMintPaid(active)
  pendingMint = (await u.call('POST', '/mint/create', { body: { amount: 6, days: 30 } })).body.mint.id
  await u.call('POST', '/farming/create', {
    body: { amount: 1, days: 10, count_activations: 2, from_ref_balance: true, from_task_balance: false, is_multilink: true, is_for_me: false },
  })
  await u.call('POST', '/withdraw/create', { body: { from_ref_balance: false, token_amount: 2, address: SOME_ADDRESS } })
  await u.call('POST', '/task/start', { body: { task_id: 2 } })
  await u.call('POST', '/task/start', { body: { task_id: 3 } })
})
afterAll(() => t.close())

const RUNS = 40

/** Values that are never a valid amount: wrong types, negatives, over 9 decimals, non-finite, garbage text. */
const badAmount = fc.oneof(
  fc.constantFrom(-1, -0.5, 0, '0', '-1', 'abc', '', ' ', '1e400', 'NaN', 'Infinity', '-Infinity', '1.0000000001', '0x10', '1,5', null, true, false, [], {}, '1e-10', 1e300, '9'.repeat(30), '1 2', '..1', '1..'),
  fc.double({ max: -1e-9, noNaN: true }),
  fc.double({ min: 1e-15, max: 9e-10, noNaN: true }),
  fc.string().filter((s) => !/^\s*\+?[\d.]/.test(s)),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
)
const badDays = fc.oneof(fc.constantFrom(0, -1, 3, 7, 11, 1.5, 'x', '', null, [], {}, true), fc.integer({ min: 181, max: 2 ** 40 }))
const badBool = fc.oneof(fc.constantFrom('yes', 2, -1, [], {}, 'TRUE '), fc.string({ minLength: 2 }).filter((s) => !['true', 'false'].includes(s)))
const badId = fc.oneof(fc.constantFrom(0, -1, 'abc', 1.5, null, [], {}, '', '1e3', ' 1'), fc.integer({ min: 100_000, max: 2 ** 45 }))
const badPage = fc.oneof(fc.constantFrom(0, -1, 'a', 1.5, '1e2', 1_000_001), fc.string().filter((s) => !/^\s*\d+\s*$/.test(s) && s !== ''))
const badLimit = fc.oneof(fc.constantFrom(0, -5, 1001, 'x', 2.5), fc.integer({ min: 1001, max: 2 ** 40 }))
const badAddress = fc.oneof(fc.constantFrom('', '0:xyz', '0:' + 'g'.repeat(64), '1:' + 'a'.repeat(64), 'EQB6HAtOLw1qOpxeix1Peixumz1fihxOey1vmjxeix1PerQ8', 5, null, {}), fc.string())
const junk = fc.oneof(fc.string(), fc.constant('{'), fc.constant('[1,2]'), fc.constant('"str"'), fc.constant('null'), fc.constant('{"__proto__":{"x":1}}'))

type Value = Record<string, unknown>
/** A valid body with exactly one field replaced by a bad value. */
const oneBad = (valid: Value, bad: Record<string, fc.Arbitrary<unknown>>) =>
  fc.oneof(...Object.entries(bad).map(([k, arb]) => arb.map((v) => ({ ...valid, [k]: v }))))
const query = (v: Value) => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, x !== null && typeof x === "object" ? JSON.stringify(x) : String(x)]))

const farmValid = { amount: 1, days: 10, count_activations: 2, from_ref_balance: true, from_task_balance: false, is_multilink: true, is_for_me: false }
const page = oneBad({ page: 1, limit: 10 }, { page: badPage, limit: badLimit })

interface Case {
  readonly name: string
  readonly arb: fc.Arbitrary<unknown>
  readonly send: (v: any) => Promise<Reply>
}

const get = (path: string) => (v: Value) => u.call('GET', path, { query: query(v) })
const post = (path: string) => (v: unknown) =>
  typeof v === 'string' ? u.call('POST', path, { rawBody: v }) : u.call('POST', path, { body: v })

const CASES: Case[] = [
  { name: 'POST /auth/register', arb: fc.oneof(fc.string(), fc.constant(signInitData({ id: 1 }, 1)), fc.anything()).map((x) => ({ init_data: x, ref_code: 'x' })), send: (v) => t.call('POST', '/auth/register', { body: v }) },
  { name: 'POST /auth/refresh', arb: fc.oneof(fc.string(), fc.anything()).map((x) => ({ refresh_token: x })), send: (v) => t.call('POST', '/auth/refresh', { body: v }) },
  { name: 'GET /mint/', arb: page, send: get('/mint/') },
  { name: 'GET /mint/calculate', arb: oneBad({ amount: 10, freeze_days: 30 }, { amount: badAmount, freeze_days: badDays }), send: get('/mint/calculate') },
  { name: 'POST /mint/create', arb: fc.oneof(oneBad({ amount: 10, days: 30 }, { amount: badAmount, days: badDays }), junk), send: post('/mint/create') },
  { name: 'POST /mint/{id}/cancel', arb: badId, send: (id) => u.call('POST', `/mint/${encodeURIComponent(JSON.stringify(id))}/cancel`) },
  { name: 'GET /staking/calculate', arb: fc.oneof(badId, fc.constant(pendingMint)).map((id) => ({ staking_id: id })), send: get('/staking/calculate') },
  { name: 'GET /staking/', arb: page, send: get('/staking/') },
  { name: 'POST /staking/create', arb: fc.oneof(badId.map((id) => ({ mint_id: id })), fc.constant(null).map(() => ({ mint_id: pendingMint })), junk), send: post('/staking/create') },
  { name: 'GET /farming/plans', arb: fc.oneof(oneBad({ from_ref_balance: true, from_task_balance: false }, { from_ref_balance: badBool, from_task_balance: badBool }), fc.constant({ from_ref_balance: true, from_task_balance: true })), send: get('/farming/plans') },
  { name: 'GET /farming/', arb: page, send: get('/farming/') },
  {
    name: 'GET /farming/calculate',
    arb: fc.oneof(
      oneBad({ amount: 10, freeze_days: 30 }, { amount: badAmount, freeze_days: badDays, from_ref_balance: badBool, from_task_balance: badBool }),
      fc.constant({ amount: 10, freeze_days: 30, from_ref_balance: true, from_task_balance: true }),
    ),
    send: get('/farming/calculate'),
  },
  {
    name: 'POST /farming/create',
    arb: fc.oneof(
      oneBad(farmValid, { amount: badAmount, days: badDays, count_activations: fc.oneof(badDays.filter((d) => d !== 3 && d !== 7 && d !== 11), fc.constant(1001)), from_ref_balance: badBool, is_multilink: badBool, is_for_me: badBool }),
      fc.constant({ ...farmValid, from_task_balance: true }),
      // Neither flag is the main balance (98 here): 600 × 2 is more than it holds.
      fc.constant({ ...farmValid, from_ref_balance: false, amount: 600 }),
      fc.constant({ ...farmValid, is_multilink: false }),
      fc.constant({ ...farmValid, amount: 1000, count_activations: 1000 }),
      junk,
    ),
    send: post('/farming/create'),
  },
  { name: 'POST /farming/{id}/cancel', arb: badId, send: (id) => u.call('POST', `/farming/${encodeURIComponent(JSON.stringify(id))}/cancel`) },
  { name: 'GET /farming/activation-status', arb: fc.string().map((c) => ({ activation_code: c })), send: get('/farming/activation-status') },
  { name: 'GET /withdraw/calculate', arb: badAmount.map((a) => ({ token_amount: a })), send: get('/withdraw/calculate') },
  { name: 'GET /operations/history', arb: fc.oneof(page, badBool.map((s) => ({ sort_order: s }))), send: get('/operations/history') },
  { name: 'GET /withdraw/history', arb: fc.oneof(page, badBool.map((s) => ({ sort_order: s })), fc.string().map((s) => ({ sort_by: `x${s}` }))), send: get('/withdraw/history') },
  {
    name: 'POST /withdraw/create',
    arb: fc.oneof(
      oneBad({ from_ref_balance: false, token_amount: 1, address: SOME_ADDRESS }, { from_ref_balance: badBool, token_amount: badAmount, address: badAddress }),
      fc.constant({ from_ref_balance: true, token_amount: 1000, address: SOME_ADDRESS }),
      fc.constant({ from_ref_balance: false, token_amount: 0.5, address: SOME_ADDRESS }),
      junk,
    ),
    send: post('/withdraw/create'),
  },
  { name: 'POST /withdraw/transfer-from-referral-balance', arb: fc.oneof(badAmount, fc.constant(1e6)).map((a) => ({ token_amount: a })), send: post('/withdraw/transfer-from-referral-balance') },
  { name: 'POST /task/start', arb: fc.oneof(badId, fc.constantFrom(2, 3, '2')).map((id) => ({ task_id: id })), send: post('/task/start') },
  {
    name: 'POST /task/validate',
    arb: fc.oneof(
      badId.map((id) => ({ task_id: id })),
      fc.constant({ task_id: 1 }),
      fc.string().filter((s) => s.trim().replace(/\/+$/, '') !== 'https://t.me/axiom_news').map((link) => ({ task_id: 2, link })),
      fc.oneof(fc.string(), fc.constant('data:image/png;base64,'), fc.constant('data:text/html;base64,AAAA'), fc.constant(`data:image/png;base64,${'A'.repeat(1_400_000)}`)).map((photo) => ({ task_id: 3, photo })),
      junk,
    ),
    send: post('/task/validate'),
  },
  { name: 'POST /task/claim', arb: fc.oneof(badId, fc.constantFrom(1, 2, 3)).map((id) => ({ task_id: id })), send: post('/task/claim') },
  {
    name: 'GET /price/candles',
    arb: fc.oneof(
      fc.string().filter((s) => !['5m', '30m', '1h', '4h', '1d'].includes(s)).map((i) => ({ interval: i })),
      fc.tuple(fc.integer({ min: 1, max: 4e9 }), fc.integer({ min: 1, max: 1e6 })).map(([to, d]) => ({ interval: '1h', from_timestamp: to + d, to_timestamp: to })),
      fc.constantFrom(-1, 'a', 1.5, '1e2', 5e9, ' ', 'x1').map((p) => ({ interval: '5m', from_timestamp: p })),
    ),
    send: get('/price/candles'),
  },
]

/** The calls without input: fuzzed with junk query strings they must ignore, changing nothing. */
const NO_INPUT: Array<[string, string]> = [
  ['GET', '/user/me'],
  ['GET', '/user/referrals'],
  ['POST', '/user/share-message'],
  ['GET', '/mint/all-plans'],
  ['GET', '/task/list'],
  ['GET', '/price/current-price'],
  ['GET', '/stats/financial'],
  ['GET', '/maintenance/'],
]

const AUTHED: Array<[string, string]> = [
  ...NO_INPUT.filter(([, p]) => p !== '/maintenance/'),
  ...CASES.filter((c) => !c.name.includes('/auth/')).map((c) => c.name.split(' ') as [string, string]),
].map(([m, p]) => [m, p.replace('{id}', '1')])

const unchanged = async (send: () => Promise<Reply>, expectError: boolean) => {
  const before = await t.server.admin.snapshot()
  const res = await send()
  const shown = JSON.stringify(res.body).slice(0, 300)
  expect(res.status, shown).toBeLessThan(500)
  if (expectError) {
    expect(res.status, shown).toBeGreaterThanOrEqual(400)
    expect(typeof res.body.msg).toBe('string')
  }
  expect(await t.server.admin.snapshot()).toBe(before)
}

describe('bad payloads: never a 5xx, never a change', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    await fc.assert(fc.asyncProperty(c.arb, (v) => unchanged(() => c.send(v), true)), { numRuns: RUNS })
  })

  it.each(NO_INPUT)('%s %s ignores junk query strings', async (method, path) => {
    const arb = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 })
    await fc.assert(fc.asyncProperty(arb, (q) => unchanged(() => u.call(method, path, { query: q }), false)), { numRuns: 10 })
  })

  it('every authenticated call refuses a random bearer token with 401', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...AUTHED), fc.string({ minLength: 1 }).filter((s) => /^[\x21-\x7e]+$/.test(s)), async ([m, p], token) => {
        const before = await t.server.admin.snapshot()
        const res = await t.call(m, p, { token, body: m === 'POST' ? {} : undefined })
        expect(res.status).toBe(401)
        expect(await t.server.admin.snapshot()).toBe(before)
      }),
      { numRuns: 100 },
    )
  })
})
