/**
 * Fuzz: at least 5 000 generated bad requests over every call of docs/api.md (wrong types, missing
 * fields, huge, negative, zero and over-precise amounts, bad ids, unicode, bad JSON, wrong methods,
 * bad auth headers and cookies, oversized strings, bad idempotency keys). No answer is a 5xx, every
 * 4xx carries a `msg`, and no table of the database changes. Replay a run with FUZZ_SEED=<seed>.
 * The caller's balances are all zero and it owns nothing, so a request that slipped through as valid
 * would still be refused for funds; what it may touch (another user's bond, link) is someone else's.
 */
import { createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { DEV_BOT_TOKEN, DEV_JWT_SECRET, startServer, type RunningServer, type StartOptions } from '../../server/main.ts'
import { signInitDataFor } from '../support/init-data.ts'
import { RELAXED_RATE_LIMITS } from '../support/relaxed-limits.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123)
const REQUESTS = 5_200
const T0 = 1_780_000_000
const ADDRESS = 'EQA_bB0umot8bV5POiscDZ6PemtcTT4vGgucjX5vWks8LYOF'

/** The one place the backend's options are set. A fixed clock: the settle job moves nothing between snapshots. */
const serverOptions: StartOptions = { port: 0, host: '127.0.0.1', dbPath: ':memory:', priceTickMs: 60_000, now: () => T0, welcomeBalanceNano: 0n, rateLimits: RELAXED_RATE_LIMITS }

let server: RunningServer | null = null
afterAll(async () => {
  await server?.close()
})

interface Raw {
  readonly status: number
  readonly text: string
}

const send = (base: string, method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<Raw> =>
  new Promise((resolve, reject) => {
    const url = new URL(base)
    const req = request(
      { host: url.hostname, port: url.port, method, path: `/api${path}`, headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })

/** A JWT signed by hand (RFC 7519, HS256), independent of the library the server uses. */
const jwt = (payload: object, secret: string, header: object = { alg: 'HS256', typ: 'JWT' }) => {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
  const head = `${b64(header)}.${b64(payload)}`
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`
}

/** Every table, every row, as text: equal snapshots mean nothing changed. */
const snapshot = async (s: RunningServer): Promise<Map<string, string>> => {
  const db = s.ctx.db
  const tables =
    db.dialect === 'sqlite'
      ? await db.all<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
      : await db.all<{ name: string }>(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`)
  const out = new Map<string, string>()
  for (const { name } of tables)
    out.set(
      name,
      (await db.all(`SELECT * FROM "${name}"`))
        .map((r) => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)))
        .sort()
        .join('\n'),
    )
  return out
}

// ---- bad values, each surely refused where it is used -------------------------------------------

/** A text that is not a plain decimal number (which the server reads as an amount). */
const notDecimal = (s: string) => !/^\s*[+]?\d+(\.\d+)?\s*$/.test(s)
const junkText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', '٣', '１０', '<script>alert(1)</script>', "1' OR '1'='1", '../../etc/passwd', '%00', '\ud800', '🚀🚀', 'null', 'undefined', '__proto__'),
).filter(notDecimal)
const oversized = fc.integer({ min: 5_000, max: 120_000 }).chain((n) => fc.constantFrom('a', 'Ж', '9', '🚀').map((c) => c.repeat(n)))
const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  junkText,
  fc.constantFrom(null, true, false, [], {}, [1, 2], { nested: { deep: [null] } }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
)
const badAmount: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(0, -0, -1, -0.5, '0', '-5', '0.0000000001', '1.1234567891', '0.000000000', 1e30, 1e308, '1e400', 'NaN', 'Infinity', '-Infinity', '1,5', '0x10', '1e3', '99999999999999999999999999'),
  fc.integer({ min: -1e12, max: 0 }),
  fc.double({ noNaN: true, max: 0 }),
  fc.double({ min: 1e21, noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: 1, max: 9_999 }).map((n) => Number(`${n}.${'3'.repeat(12)}`)),
  junkValue,
)
const badDays: fc.Arbitrary<unknown> = fc.oneof(fc.constantFrom(0, -10, 1, 3, 7, 29, 30.5, 31, 365, 1e9, -1e9, 2 ** 53), junkValue)
const badCount: fc.Arbitrary<unknown> = fc.oneof(fc.constantFrom(0, -1, 1.5, 1e9, 2 ** 53, 10_001), junkValue)
const badBool: fc.Arbitrary<unknown> = fc.oneof(fc.constantFrom(0, 1, 2, 'yes', 'no', '', 'TRUE1'), fc.constantFrom(null, [], {}), fc.string({ minLength: 6, maxLength: 20 }))
const badIdValue: fc.Arbitrary<unknown> = fc.oneof(fc.constantFrom(0, -1, 1.5, 1e20, 2 ** 63, '99999999999999999999', '1e3', '0x1', ' 1', '1 ', ''), fc.integer({ min: 100_000, max: 2 ** 31 }), junkValue)
const badText = fc.oneof(junkText, oversized, fc.constantFrom(null, 5, [], {}))
const badKey = fc.oneof(fc.constant(''), fc.integer({ min: 201, max: 4_000 }).map((n) => 'k'.repeat(n)))

// ---- every call, with a template and what may be wrong with it -----------------------------------

type Field = { readonly bad: fc.Arbitrary<unknown>; readonly good: unknown }
interface CallSpec {
  readonly method: 'GET' | 'POST'
  /** As docs/api.md writes it; `{id}` is a path id. */
  readonly path: string
  readonly auth: boolean
  readonly body?: Record<string, Field>
  readonly query?: Record<string, Field>
  /** A create: sends an Idempotency-Key. */
  readonly create?: boolean
  /** A well-formed call here is harmless (a read): changing only the auth, method or noise is enough. */
  readonly harmless?: boolean
}

const id = (good: unknown): Field => ({ bad: badIdValue, good })
const amount = (good: unknown): Field => ({ bad: badAmount, good })
const flag = (good: boolean): Field => ({ bad: badBool, good })
const page: Field = { bad: fc.oneof(fc.constantFrom(0, -1, 1e12, 'x', 1.5), junkValue), good: 1 }

const callsFor = (victim: { mint: number; link: number; pending: number }): CallSpec[] => [
  { method: 'POST', path: '/auth/register', auth: false, body: { init_data: { bad: fc.oneof(badText, fc.constant(`query_id=1&user=${encodeURIComponent('{"id":1}')}&auth_date=1&hash=00`)), good: 'x' }, ref_code: { bad: badText, good: null } } },
  { method: 'POST', path: '/auth/refresh', auth: false, body: { refresh_token: { bad: badText, good: 'not-a-token' }, refresh: { bad: badText, good: 'not-a-token' } } },
  // A logout needs a refresh token of the bearer's own session: every one sent here is someone else's or none.
  { method: 'POST', path: '/auth/logout', auth: true, body: { refresh_token: { bad: badText, good: 'not-a-token' }, refresh: { bad: badText, good: 'not-a-token' } } },
  { method: 'GET', path: '/user/me', auth: true, harmless: true },
  { method: 'GET', path: '/user/referrals', auth: true, harmless: true },
  { method: 'POST', path: '/user/share-message', auth: true, harmless: true },
  { method: 'POST', path: '/user/notifications', auth: true, body: { enabled: flag(true) } },
  // The bot's report: init data it signs (never valid here, so nothing it names may change).
  { method: 'POST', path: '/telegram/chat-member', auth: false, body: { init_data: { bad: badText, good: 'x' }, chat: { bad: badText, good: 'bot' }, status: { bad: badText, good: 'kicked' } } },
  // The bot's Cancel of a waiting sale: init data it signs (never valid here, so no sale may change).
  { method: 'POST', path: '/telegram/sale-cancel', auth: false, body: { init_data: { bad: badText, good: 'x' }, sale_id: id(1) } },
  { method: 'POST', path: '/wallet/ton-proof/payload', auth: true, harmless: true },
  {
    method: 'POST',
    path: '/wallet/ton-proof/check',
    auth: true,
    body: {
      address: { bad: badText, good: `0:${'ab'.repeat(32)}` },
      network: { bad: badText, good: '-239' },
      public_key: { bad: badText, good: 'cd'.repeat(32) },
      proof: { bad: junkValue, good: { timestamp: T0, domain: { lengthBytes: 9, value: 'localhost' }, payload: 'bad', signature: 'AAAA' } },
    },
  },
  { method: 'GET', path: '/mint/', auth: true, harmless: true, query: { page, limit: page } },
  { method: 'GET', path: '/mint/all-plans', auth: true, harmless: true },
  { method: 'GET', path: '/mint/calculate', auth: true, harmless: true, query: { amount: amount(100), freeze_days: { bad: badDays, good: 30 } } },
  { method: 'POST', path: '/mint/create', auth: true, create: true, body: { amount: amount(100), days: { bad: badDays, good: 30 } } },
  { method: 'POST', path: `/mint/{id}/cancel`, auth: true, query: {}, body: {} },
  { method: 'GET', path: '/staking/calculate', auth: true, harmless: true, query: { staking_id: id(victim.mint) } },
  { method: 'POST', path: '/staking/create', auth: true, create: true, body: { mint_id: id(victim.mint) } },
  { method: 'GET', path: '/staking/', auth: true, harmless: true, query: { page, limit: page } },
  { method: 'GET', path: '/farming/plans', auth: true, harmless: true, query: { from_ref_balance: flag(true), from_task_balance: flag(false) } },
  { method: 'GET', path: '/farming/', auth: true, harmless: true, query: { page, limit: page } },
  {
    method: 'GET',
    path: '/farming/calculate',
    auth: true,
    harmless: true,
    query: { amount: amount(2), freeze_days: { bad: badDays, good: 10 }, from_ref_balance: flag(false), from_task_balance: flag(false) },
  },
  {
    method: 'POST',
    path: '/farming/create',
    auth: true,
    create: true,
    body: {
      amount: amount(1),
      days: { bad: badDays, good: 10 },
      count_activations: { bad: badCount, good: 1 },
      from_ref_balance: flag(false),
      from_task_balance: flag(false),
      is_multilink: flag(false),
      is_for_me: flag(false),
    },
  },
  { method: 'POST', path: '/farming/{id}/cancel', auth: true, body: {} },
  // A real code would activate: every code sent here is a bad one.
  { method: 'GET', path: '/farming/activation-status', auth: true, query: { activation_code: { bad: badText, good: 'ZZZZZZZZZZ' } } },
  { method: 'GET', path: '/withdraw/calculate', auth: true, harmless: true, query: { token_amount: amount(10) } },
  {
    method: 'GET',
    path: '/operations/history',
    auth: true,
    harmless: true,
    query: { page, size: page, sort_order: { bad: fc.oneof(junkText, fc.constantFrom('ASC', 'up', '1')), good: 'desc' } },
  },
  {
    method: 'GET',
    path: '/withdraw/history',
    auth: true,
    harmless: true,
    query: { page, limit: page, sort_by: { bad: junkText, good: 'created_at' }, sort_order: { bad: fc.oneof(junkText, fc.constantFrom('ASC', 'up')), good: 'desc' } },
  },
  { method: 'POST', path: '/withdraw/create', auth: true, create: true, body: { from_ref_balance: flag(false), token_amount: amount(10), address: { bad: badText, good: ADDRESS } } },
  { method: 'POST', path: '/withdraw/transfer-from-referral-balance', auth: true, create: true, body: { token_amount: amount(10) } },
  { method: 'GET', path: '/task/list', auth: true, harmless: true },
  { method: 'POST', path: '/task/start', auth: true, body: { task_id: { bad: fc.oneof(badIdValue, fc.constantFrom(4, 99)), good: 1 } } },
  { method: 'POST', path: '/task/validate', auth: true, body: { task_id: { bad: badIdValue, good: 2 }, link: { bad: badText, good: 'https://t.me/axiom_news' }, photo: { bad: badText, good: 'data:image/png;base64,AAAA' } } },
  { method: 'POST', path: '/task/claim', auth: true, body: { task_id: { bad: badIdValue, good: 1 } } },
  { method: 'GET', path: '/price/current-price', auth: false, harmless: true },
  {
    method: 'GET',
    path: '/price/candles',
    auth: false,
    harmless: true,
    query: { interval: { bad: junkText, good: '1h' }, from_timestamp: { bad: fc.oneof(fc.constantFrom(-1, 1e20, 'x'), junkValue), good: T0 - 86_400 }, to_timestamp: { bad: fc.oneof(fc.constantFrom(-1, 1e20, 'y'), junkValue), good: T0 } },
  },
  { method: 'GET', path: '/stats/financial', auth: true, harmless: true },
  { method: 'GET', path: '/maintenance/', auth: false, harmless: true },
]

/** The calls docs/api.md documents, as `METHOD /path` with `{id}` for a path id and no query. */
const documentedCalls = (): string[] => {
  const text = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8')
  const out = new Set<string>()
  for (const line of text.split('\n').filter((l) => l.startsWith('### ')))
    for (const m of line.matchAll(/`(GET|POST) ([^`?\s]+)[^`]*`/g)) out.add(`${m[1]} ${m[2]}`)
  return [...out]
}

// ---- a bad request ---------------------------------------------------------------------------------

interface BadRequest {
  readonly call: string
  readonly kind: string
  readonly method: string
  readonly path: string
  readonly headers: Record<string, string>
  readonly body?: Buffer
}

type Tokens = { good: string; victimMint: number; victimLink: number; victimPending: number }

const requestArb = (calls: CallSpec[], t: Tokens): fc.Arbitrary<BadRequest> => {
  const badAuth = fc.oneof(
    fc.constant<Record<string, string>>({}),
    fc.constantFrom('Bearer', 'Bearer ', 'bearer x', 'Basic dXNlcjpwYXNz', `Bearer ${t.good}x`, `Bearer ${t.good.slice(0, -4)}`, `Token ${t.good}`).map((a) => ({ authorization: a })),
    fc.constantFrom(
      jwt({ sub: '1', exp: T0 + 900 }, 'not-the-secret'),
      jwt({ sub: '1', exp: T0 - 10 }, DEV_JWT_SECRET),
      jwt({ sub: '999999', exp: T0 + 900, typ: 'access' }, 'x'),
      jwt({ sub: '1', exp: T0 + 900 }, '', { alg: 'none', typ: 'JWT' }).replace(/[^.]+$/, ''),
    ).map((tok) => ({ authorization: `Bearer ${tok}` })),
    fc.string({ unit: 'binary-ascii', maxLength: 200 }).map((s) => ({ authorization: `Bearer ${s.replace(/[^\x20-\x7e]/g, '')}` })),
    fc.integer({ min: 1_000, max: 6_000 }).map((n) => ({ authorization: `Bearer ${'a'.repeat(n)}` })),
    fc.constantFrom('auth_token=abc', `auth_token=${t.good}x; refresh_token=zzz`, 'auth_token=; a=b', `access_token=${'x'.repeat(3_000)}`).map((c) => ({ cookie: c })),
  )
  return fc.constantFrom(...calls).chain((spec) => {
    const call = `${spec.method} ${spec.path}`
    const fields = spec.body ?? {}
    const query = spec.query ?? {}
    const goodBody = Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.good]))
    const goodQuery = Object.fromEntries(Object.entries(query).map(([k, f]) => [k, f.good]))
    const pathId = spec.path.includes('{id}')
      ? fc.oneof(
          fc.constantFrom(spec.path.startsWith('/mint') ? t.victimPending : t.victimLink, spec.path.startsWith('/mint') ? t.victimMint : t.victimLink),
          fc.constantFrom('0', '-1', 'abc', '1.5', '99999999999999999999', '%F0%9F%9A%80', '%00', '1e3', '%20'),
          fc.integer({ min: 100_000, max: 2 ** 31 }),
        )
      : fc.constant(null)
    const auth: Record<string, string> = spec.auth ? { authorization: `Bearer ${t.good}` } : {}

    // What is wrong with it: one of these, always.
    const kinds: Array<fc.Arbitrary<{ kind: string; body?: unknown; raw?: string | Buffer; query?: Record<string, unknown>; headers?: Record<string, string>; method?: string; contentType?: string }>> = []
    const fieldNames = Object.keys(fields)
    if (fieldNames.length)
      kinds.push(
        fc.constantFrom(...fieldNames).chain((k) => fields[k]!.bad.map((v) => ({ kind: 'bad field', body: { ...goodBody, [k]: v } }))),
        fc.subarray(fieldNames, { minLength: 1 }).map((drop) => ({ kind: 'missing field', body: Object.fromEntries(Object.entries(goodBody).filter(([k]) => !drop.includes(k))) })),
        fc.constantFrom(...fieldNames).chain((k) => oversized.map((v) => ({ kind: 'oversized string', body: { ...goodBody, [k]: v } }))),
      )
    if (spec.method === 'POST')
      kinds.push(
        fc.oneof(fc.constantFrom<unknown>([], 'text', 42, null, true, [goodBody]), fc.array(junkValue, { maxLength: 3 })).map((b) => ({ kind: 'body of a wrong type', body: b })),
        fc
          .constantFrom<string | Buffer>('{', '{"amount":', '{"a":1,}', "{'a':1}", 'undefined', '\u0000', '[[[[[[[[[[', '{"a":NaN}', Buffer.from([0xff, 0xfe, 0x7b, 0x7d]), '{"__proto__":{"admin":true}}', `${'['.repeat(5_000)}${']'.repeat(5_000)}`)
          .map((raw) => ({ kind: 'bad JSON', raw })),
        fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml').map((contentType) => ({
          kind: 'wrong content type',
          raw: new URLSearchParams(Object.entries(goodBody).map(([k, v]) => [k, String(v)])).toString(),
          contentType,
        })),
      )
    const queryNames = Object.keys(query)
    if (queryNames.length && (spec.harmless || spec.method === 'GET'))
      kinds.push(
        fc.constantFrom(...queryNames).chain((k) => query[k]!.bad.map((v) => ({ kind: 'bad query value', query: { ...goodQuery, [k]: v } }))),
        fc.subarray(queryNames, { minLength: 1 }).map((drop) => ({ kind: 'missing query value', query: Object.fromEntries(Object.entries(goodQuery).filter(([k]) => !drop.includes(k))) })),
      )
    if (spec.auth) kinds.push(badAuth.map((headers) => ({ kind: 'bad auth', headers })))
    kinds.push(
      fc.constantFrom('PUT', 'DELETE', 'PATCH', spec.method === 'GET' ? 'POST' : 'GET').map((method) => ({ kind: 'wrong method', method })),
    )
    if (spec.create) kinds.push(badKey.map((key) => ({ kind: 'bad idempotency key', body: goodBody, headers: { ...auth, 'idempotency-key': key } })))
    if (spec.harmless) kinds.push(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), junkText.map(String), { maxKeys: 4 }).map((q) => ({ kind: 'junk query', query: q })))
    if (!kinds.length) throw new Error(`nothing to break in ${call}`)

    return fc.tuple(fc.oneof(...kinds), pathId).map(([m, idValue]) => {
      const path = spec.path.replace('{id}', String(idValue))
      const q = m.query ?? (spec.method === 'GET' ? goodQuery : {})
      const qs = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)])).toString()
      const method = m.method ?? spec.method
      const headers: Record<string, string> = { ...(m.kind === 'bad auth' ? {} : auth), ...(m.headers ?? {}) }
      let body: Buffer | undefined
      if (m.raw !== undefined) body = Buffer.isBuffer(m.raw) ? m.raw : Buffer.from(m.raw)
      else if ('body' in m) body = Buffer.from(JSON.stringify(m.body))
      else if (spec.method === 'POST') body = Buffer.from(JSON.stringify(goodBody))
      if (body && method !== 'GET') headers['content-type'] = m.contentType ?? 'application/json'
      if (method === 'GET') body = undefined
      return { call, kind: m.kind, method, path: qs ? `${path}?${qs}` : path, headers, ...(body ? { body } : {}) }
    })
  })
}

describe('fuzz', () => {
  it(`${REQUESTS} bad requests over every call: no 5xx, every 4xx with a msg, no state change`, async () => {
    const began = Date.now()
    server = await startServer(serverOptions)
    const s = server
    const url = s.url
    console.log(`fuzz seed ${SEED} (replay with FUZZ_SEED=${SEED})`)

    // A victim who owns an active bond, a pending bond and a link; the attacker owns nothing, has nothing.
    const register = async (telegramId: number) => {
      const r = await send(url, 'POST', '/auth/register', { 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ init_data: signInitDataFor({ id: telegramId }, T0, DEV_BOT_TOKEN), ref_code: null })))
      expect(r.status).toBe(200)
      return JSON.parse(r.text).token as string
    }
    const victim = await register(990_001)
    const attacker = await register(990_002)
    await s.admin.credit(990_001, '500', 'balance_token')
    const post = async (token: string, path: string, body: unknown) =>
      JSON.parse((await send(url, 'POST', path, { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, Buffer.from(JSON.stringify(body)))).text)
    const mint = (await post(victim, '/mint/create', { amount: 20, days: 30 })).mint.id as number
    await s.markMintPaid(mint)
    const pending = (await post(victim, '/mint/create', { amount: 21, days: 30 })).mint.id as number
    const link = (await post(victim, '/farming/create', { amount: 2, days: 10, count_activations: 1, from_ref_balance: false, from_task_balance: false, is_multilink: false, is_for_me: false })).id as number
    expect([mint, pending, link].every((x) => typeof x === 'number')).toBe(true)

    const calls = callsFor({ mint, link, pending })
    const covered = new Set(calls.map((c) => `${c.method} ${c.path}`))
    expect(documentedCalls().filter((c) => !covered.has(c))).toEqual([])

    const requests = fc.sample(requestArb(calls, { good: attacker, victimMint: mint, victimLink: link, victimPending: pending }), { seed: SEED, numRuns: REQUESTS })
    const before = await snapshot(s)

    const byStatus = new Map<number, number>()
    const byKind = new Map<string, number>()
    const byCall = new Map<string, number>()
    const serverErrors: string[] = []
    const noMsg: string[] = []
    const describeReq = (r: BadRequest) => `${r.kind}: ${r.method} ${r.path.slice(0, 160)} ${r.body ? r.body.toString('utf8').slice(0, 160) : ''}`
    const inFlight = 8
    for (let i = 0; i < requests.length; i += inFlight) {
      await Promise.all(
        requests.slice(i, i + inFlight).map(async (r) => {
          const res = await send(url, r.method, r.path, r.headers, r.body)
          byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1)
          byKind.set(r.kind, (byKind.get(r.kind) ?? 0) + 1)
          byCall.set(r.call, (byCall.get(r.call) ?? 0) + 1)
          if (res.status >= 500) serverErrors.push(`${res.status} ${describeReq(r)} → ${res.text.slice(0, 200)}`)
          else if (res.status >= 400) {
            let msg: unknown
            try {
              msg = (JSON.parse(res.text) as { msg?: unknown }).msg
            } catch {}
            if (typeof msg !== 'string' || msg.trim() === '') noMsg.push(`${res.status} ${describeReq(r)} → ${res.text.slice(0, 200)}`)
          }
        }),
      )
    }

    const after = await snapshot(s)
    const changed = [...before.keys(), ...after.keys()].filter((t, i, all) => all.indexOf(t) === i && before.get(t) !== after.get(t))
    const status = [...byStatus.entries()].sort(([a], [b]) => a - b).map(([k, v]) => `${k}: ${v}`).join(', ')
    const figures = {
      seed: SEED,
      requests: requests.length,
      'calls covered': `${byCall.size} of ${calls.length} (docs/api.md lists ${documentedCalls().length})`,
      'by status': status,
      'by kind': [...byKind.entries()].map(([k, v]) => `${k} ${v}`).join(', '),
      '5xx': serverErrors.length,
      '4xx without msg': noMsg.length,
      'tables changed': changed.length ? changed.join(', ') : 0,
      'wall time (s)': ((Date.now() - began) / 1000).toFixed(1),
    }
    console.log(`fuzz figures\n${Object.entries(figures).map(([k, v]) => `  ${k}: ${v}`).join('\n')}`)
    if (serverErrors.length) console.log(`5xx answers (first 10)\n  ${serverErrors.slice(0, 10).join('\n  ')}`)
    for (const t of changed) {
      const was = new Set((before.get(t) ?? '').split('\n'))
      console.log(`rows new in ${t}:\n  ${(after.get(t) ?? '').split('\n').filter((r) => !was.has(r)).slice(0, 5).join('\n  ').slice(0, 1_000)}`)
    }
    if (noMsg.length) console.log(`4xx without msg (first 10)\n  ${noMsg.slice(0, 10).join('\n  ')}`)

    expect(serverErrors).toEqual([])
    expect(noMsg).toEqual([])
    expect(changed).toEqual([])
    expect(byCall.size).toBe(calls.length)
    // The requests were refused, not waved through: most answers are 4xx.
    const refused = [...byStatus.entries()].filter(([k]) => k >= 400 && k < 500).reduce((n, [, v]) => n + v, 0)
    expect(refused).toBeGreaterThan(requests.length * 0.8)
  }, 120_000)
})
