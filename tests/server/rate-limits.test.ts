import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DEFAULT_RATE_LIMITS, optionsFromEnv, type RateCount, type RateLimitStore } from '../../server/main.ts'
import { call, SOME_ADDRESS, signInitData, startTestServer, T0, type Reply, type TestServer } from './support.ts'

const TOO_MANY = /^Too many requests, try again in \d+ s$/

const servers: TestServer[] = []
// The bursts of creates are of unpaid bonds: the cap on a user's bonds waiting for payment (5 by
// default) is lifted, so what cuts them is the request limit under test.
const serverWith = async (options: Parameters<typeof startTestServer>[0] = {}) => {
  const t = await startTestServer({ rateLimits: DEFAULT_RATE_LIMITS, maxPendingMints: 1_000, ...options })
  servers.push(t)
  return t
}
afterAll(() => Promise.all(servers.map((t) => t.close())))

/** Runs `n` calls, `width` at a time. */
const burst = async (n: number, width: number, one: (i: number) => Promise<Reply>): Promise<Reply[]> => {
  const out: Reply[] = new Array(n)
  let next = 0
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) {
        const i = next++
        out[i] = await one(i)
      }
    }),
  )
  return out
}

const expectTooMany = (r: Reply) => {
  expect(r.status).toBe(429)
  expect(r.body.msg).toMatch(TOO_MANY)
  const after = Number(r.headers.get('retry-after'))
  expect(after).toBeGreaterThanOrEqual(1)
  expect(after).toBeLessThanOrEqual(60)
  expect(r.body.msg).toBe(`Too many requests, try again in ${after} s`)
}

const usersIn = async (t: TestServer) => Number((await t.server.ctx.db.one<{ n: bigint }>('SELECT COUNT(*) AS n FROM users'))!.n)

describe('registration', () => {
  it('a burst of 2 000 registrations from distinct Telegram users is cut at the limit; every 429 says why, and creates nobody', async () => {
    const t = await serverWith()
    const replies = await burst(2000, 50, (i) =>
      call(t.url, 'POST', '/auth/register', { body: { init_data: signInitData({ id: 900_000 + i }, T0) } }),
    )
    const ok = replies.filter((r) => r.status === 200)
    const refused = replies.filter((r) => r.status !== 200)
    expect(ok.length).toBe(DEFAULT_RATE_LIMITS.register.max)
    expect(refused.length).toBe(2000 - DEFAULT_RATE_LIMITS.register.max)
    for (const r of refused) expectTooMany(r)
    expect(await usersIn(t)).toBe(ok.length)
    // 2 000 signed registrations through a real server: seconds on a quiet machine, more on a loaded one.
  }, 120_000)
})

describe('per user', () => {
  it('a burst of creates by one user is cut at the limit, changes nothing beyond it, and another user is unaffected', async () => {
    const t = await serverWith()
    const a = await t.login(1)
    const b = await t.login(2)
    const max = DEFAULT_RATE_LIMITS.create.max
    // Distinct amounts: an identical create repeated within seconds is answered once (deduplication).
    const replies = await burst(max + 10, 10, (i) => a.call('POST', '/mint/create', { body: { amount: String(5 + i), days: 30 } }))
    expect(replies.filter((r) => r.status === 200).length).toBe(max)
    for (const r of replies.filter((r) => r.status !== 200)) expectTooMany(r)
    const mine = await a.call('GET', '/mint/')
    expect(mine.status).toBe(200)
    expect(mine.body.total).toBe(max)

    const other = await b.call('POST', '/mint/create', { body: { amount: '5', days: 30 } })
    expect(other.status).toBe(200)
    // Re-bonding is a create too: it shares A's exhausted budget, and A's balance stays whole.
    const link = await a.call('POST', '/farming/create', {
      body: { amount: '5', days: 30, count_activations: 1, is_multilink: false, is_for_me: true },
    })
    expectTooMany(link)
    expect((await a.call('GET', '/user/me')).body.balance_token).toBe((await b.call('GET', '/user/me')).body.balance_token)
  })

  it('sales and transfers have the tightest budget; a refused sale reserves nothing', async () => {
    const t = await serverWith()
    const a = await t.login(3)
    await t.server.admin.credit(3, '500')
    const max = DEFAULT_RATE_LIMITS.withdraw.max
    const replies = await burst(max + 5, 5, (i) =>
      a.call('POST', '/withdraw/create', { body: { from_ref_balance: false, token_amount: String(1 + i), address: SOME_ADDRESS } }),
    )
    expect(replies.filter((r) => r.status === 200).length).toBe(max)
    for (const r of replies.filter((r) => r.status !== 200)) expectTooMany(r)
    expectTooMany(await a.call('POST', '/withdraw/transfer-from-referral-balance', { body: { token_amount: '1' } }))
    const history = await a.call('GET', '/withdraw/history')
    expect(history.body.total).toBe(max)
    const sold = (history.body.items as Array<{ token_amount: string }>).reduce((sum, w) => sum + Number(w.token_amount), 0)
    expect(Number((await a.call('GET', '/user/me')).body.balance_token)).toBe(600 - sold)
  })

  it('uploads (task validation) have their own budget', async () => {
    const t = await serverWith({ rateLimits: { ...DEFAULT_RATE_LIMITS, upload: { max: 2, windowS: 60 } } })
    const a = await t.login(4)
    const statuses: number[] = []
    for (let i = 0; i < 3; i++) statuses.push((await a.call('POST', '/task/validate', { body: { task_id: 1 } })).status)
    expect(statuses.slice(0, 2).every((s) => s !== 429)).toBe(true)
    expect(statuses[2]).toBe(429)
    // Reads are only under the general rule.
    expect((await a.call('GET', '/task/list')).status).toBe(200)
  })

  it('requests with a refused token count against their IP', async () => {
    const t = await serverWith({ rateLimits: { ...DEFAULT_RATE_LIMITS, general: { max: 5, windowS: 60 } } })
    const statuses: number[] = []
    for (let i = 0; i < 7; i++) statuses.push((await t.call('GET', '/user/me', { token: 'not-a-token' })).status)
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429])
  })
})

describe('the store seam', () => {
  /** A store outside the server process, as a shared store would be: one map for every instance. */
  const sharedStore = () => {
    const counts = new Map<string, { n: number; until: number }>()
    const factory = (rule: string): RateLimitStore => ({
      incr: async (key: string, windowMs: number): Promise<RateCount> => {
        const now = Date.now()
        const k = `${rule}|${key}`
        const c = counts.get(k)
        const next = c && c.until > now ? { n: c.n + 1, until: c.until } : { n: 1, until: now + windowMs }
        counts.set(k, next)
        return { current: next.n, ttlMs: next.until - now }
      },
    })
    return { counts, factory }
  }

  it('two instances on one shared store share a user’s budget', async () => {
    const store = sharedStore()
    const rateLimits = { ...DEFAULT_RATE_LIMITS, create: { max: 4, windowS: 60 } }
    const dir = mkdtempSync(join(tmpdir(), 'axiom-limits-'))
    const dbPath = join(dir, 'axiom.db')
    const one = await serverWith({ rateLimits, rateLimitStore: store.factory, dbPath })
    const two = await serverWith({ rateLimits, rateLimitStore: store.factory, dbPath })
    const onOne = await one.login(5)
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) {
      const base = i % 2 === 0 ? one.url : two.url
      statuses.push((await call(base, 'POST', '/mint/create', { token: onOne.token, body: { amount: String(2 + i), days: 30 } })).status)
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429])
    expect([...store.counts.keys()].some((k) => k.startsWith('create|create:user:'))).toBe(true)
    await Promise.all([one.close(), two.close()])
    servers.splice(servers.indexOf(one), 1)
    servers.splice(servers.indexOf(two), 1)
    rmSync(dir, { recursive: true, force: true })
  })
})

describe('configuration', () => {
  it('limits are on by default, off with AXIOM_RATE_LIMITS=off, and a rule is set as <max>/<seconds>', () => {
    expect(optionsFromEnv({}).rateLimits).toBeUndefined()
    expect(optionsFromEnv({ AXIOM_RATE_LIMITS: 'off' }).rateLimits).toBeNull()
    expect(optionsFromEnv({ AXIOM_RATE_LIMIT_REGISTER: '5/10' }).rateLimits).toEqual({ ...DEFAULT_RATE_LIMITS, register: { max: 5, windowS: 10 } })
    expect(() => optionsFromEnv({ AXIOM_RATE_LIMIT_CREATE: 'lots' })).toThrow(/AXIOM_RATE_LIMIT_CREATE must be/)
  })

  it('the sockets: AXIOM_RATE_LIMIT_SOCKETS sets the upgrades per IP, AXIOM_SOCKETS_PER_IP the sockets open at once', () => {
    expect(optionsFromEnv({ AXIOM_RATE_LIMIT_SOCKETS: '40/30' }).rateLimits).toEqual({
      ...DEFAULT_RATE_LIMITS,
      sockets: { upgrades: { max: 40, windowS: 30 }, open: DEFAULT_RATE_LIMITS.sockets.open },
    })
    expect(optionsFromEnv({ AXIOM_SOCKETS_PER_IP: '500' }).rateLimits).toEqual({
      ...DEFAULT_RATE_LIMITS,
      sockets: { upgrades: DEFAULT_RATE_LIMITS.sockets.upgrades, open: 500 },
    })
    expect(() => optionsFromEnv({ AXIOM_SOCKETS_PER_IP: '0' })).toThrow(/AXIOM_SOCKETS_PER_IP must be/)
    expect(() => optionsFromEnv({ AXIOM_RATE_LIMIT_SOCKETS: '10' })).toThrow(/AXIOM_RATE_LIMIT_SOCKETS must be/)
  })

  it('with one trusted proxy the client IP is X-Forwarded-For’s last address (the proxy’s), whatever the client wrote before it; the peer’s without', async () => {
    const rateLimits = { ...DEFAULT_RATE_LIMITS, register: { max: 2, windowS: 60 } }
    // What the client forged (a new address each time), then what the trusted proxy appended.
    const register = (t: TestServer, id: number, ip: string) =>
      call(t.url, 'POST', '/auth/register', { body: { init_data: signInitData({ id }, T0) }, headers: { 'x-forwarded-for': `10.0.${id % 256}.1, ${ip}` } })
    const proxied = await serverWith({ rateLimits, trustProxy: 1 })
    expect((await register(proxied, 960_001, '203.0.113.1')).status).toBe(200)
    expect((await register(proxied, 960_002, '203.0.113.1')).status).toBe(200)
    expectTooMany(await register(proxied, 960_003, '203.0.113.1'))
    expect((await register(proxied, 960_004, '203.0.113.2')).status).toBe(200)
    const direct = await serverWith({ rateLimits, trustProxy: 0 })
    expect((await register(direct, 960_011, '203.0.113.1')).status).toBe(200)
    expect((await register(direct, 960_012, '203.0.113.2')).status).toBe(200)
    expectTooMany(await register(direct, 960_013, '203.0.113.3'))
  })

  it('with limits off nothing is refused', async () => {
    const t = await serverWith({ rateLimits: null })
    const replies = await burst(60, 20, (i) => call(t.url, 'POST', '/auth/register', { body: { init_data: signInitData({ id: 950_000 + i }, T0) } }))
    expect(replies.every((r) => r.status === 200)).toBe(true)
  })
})
