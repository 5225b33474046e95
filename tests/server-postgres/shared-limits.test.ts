import { afterAll, describe, expect, it } from 'vitest'
import { DEFAULT_RATE_LIMITS, startServer, type RunningServer } from '../../server/main.ts'
import { GENERAL_BATCH } from '../../server/db/rate-limit-table.ts'
import { call, signInitData, testDatabase } from '../server/support.ts'

/**
 * Two backends on one PostgreSQL, as behind one address: a user's request budget and an
 * Idempotency-Key are the same whichever instance a request reaches.
 */
const open: RunningServer[] = []
afterAll(async () => {
  for (const s of open.reverse()) await s.close().catch(() => undefined)
})

// These bursts are of unpaid bonds: the cap on a user's bonds waiting for payment (5 by default) is
// lifted, so what cuts them is the request budget under test.
const pair = async (options: Parameters<typeof startServer>[0] = {}): Promise<[RunningServer, RunningServer]> => {
  const db = await testDatabase()
  const a = await startServer({ port: 0, dbPath: db, priceTickMs: 1_000, maxPendingMints: 1_000, ...options })
  open.push(a)
  const b = await startServer({ port: 0, dbPath: db, priceTickMs: 1_000, maxPendingMints: 1_000, ...options })
  open.push(b)
  return [a, b]
}

const login = async (url: string, telegramId: number) => {
  const res = await call(url, 'POST', '/auth/register', { body: { init_data: signInitData({ id: telegramId }, Math.floor(Date.now() / 1000)) } })
  expect(res.status).toBe(200)
  return res.body.token as string
}

/** Polls `probe` until it gives `want` (an announcement between instances takes milliseconds). */
const until = async <T>(probe: () => Promise<T>, want: T, ms = 3_000): Promise<T> => {
  const end = Date.now() + ms
  for (;;) {
    const got = await probe()
    if (got === want || Date.now() > end) return got
    await new Promise((r) => setTimeout(r, 25))
  }
}

const count = async (s: RunningServer, sql: string) => Number((await s.ctx.db.one<{ n: bigint }>(sql))!.n)

describe('two instances on one PostgreSQL', () => {
  it('a user’s burst split over both instances is cut at the same total as on one: 429 after the limit, and no more bonds', async () => {
    const rateLimits = { ...DEFAULT_RATE_LIMITS, create: { max: 5, windowS: 60 } }
    const [a, b] = await pair({ rateLimits })
    const token = await login(a.url, 71_001)
    const statuses: number[] = []
    for (let i = 0; i < 9; i++) {
      const base = i % 2 === 0 ? a.url : b.url
      statuses.push((await call(base, 'POST', '/mint/create', { token, body: { amount: String(2 + i), days: 30 } })).status)
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429])
    expect(await count(a, 'SELECT COUNT(*) AS n FROM mints')).toBe(5)
    // The answer says when to come back, on either instance.
    const late = await call(b.url, 'POST', '/mint/create', { token, body: { amount: '3', days: 30 } })
    expect(late.status).toBe(429)
    expect(late.body.msg).toMatch(/^Too many requests, try again in \d+ s$/)
    expect(Number(late.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    // Another user's budget is whole.
    const other = await login(b.url, 71_002)
    expect((await call(a.url, 'POST', '/mint/create', { token: other, body: { amount: '2', days: 30 } })).status).toBe(200)
  })

  it('concurrent requests over both instances never let more than the limit through', async () => {
    const rateLimits = { ...DEFAULT_RATE_LIMITS, create: { max: 7, windowS: 60 } }
    const [a, b] = await pair({ rateLimits })
    const token = await login(b.url, 71_101)
    const replies = await Promise.all(
      // Distinct bodies: the same body twice within seconds would be one create (the dedupe window).
      Array.from({ length: 24 }, (_, i) => call(i % 2 === 0 ? a.url : b.url, 'POST', '/mint/create', { token, body: { amount: String(2 + i), days: 30 } })),
    )
    expect(replies.filter((r) => r.status === 200)).toHaveLength(7)
    expect(replies.filter((r) => r.status === 429)).toHaveLength(17)
    expect(await count(a, 'SELECT COUNT(*) AS n FROM mints')).toBe(7)
  })

  it('the general rule, counted per instance and flushed to the table, lets a client through at most its batch more over two', async () => {
    const rateLimits = { ...DEFAULT_RATE_LIMITS, general: { max: 40, windowS: 60 } }
    const [a, b] = await pair({ rateLimits })
    const token = await login(a.url, 71_051)
    const statuses = await Promise.all(
      Array.from({ length: 120 }, (_, i) => call(i % 2 === 0 ? a.url : b.url, 'GET', '/user/me', { token }).then((r) => r.status)),
    )
    const ok = statuses.filter((s) => s === 200).length
    // The registration counted on `a` too (by IP, not by user): the user's budget is the whole 40.
    expect(ok).toBeGreaterThanOrEqual(40)
    expect(ok).toBeLessThanOrEqual(40 + GENERAL_BATCH.unseenMax)
    expect(statuses.filter((s) => s !== 200).every((s) => s === 429)).toBe(true)
    // Within the flush interval both instances' hits are in the shared table, and both refuse.
    await new Promise((r) => setTimeout(r, GENERAL_BATCH.flushMs * 3))
    const key = (await a.ctx.db.one<{ hits: bigint }>(`SELECT hits FROM rate_limit_hits WHERE key LIKE 'general:user:%'`))!
    expect(Number(key.hits)).toBe(120)
    expect((await call(a.url, 'GET', '/user/me', { token })).status).toBe(429)
    expect((await call(b.url, 'GET', '/user/me', { token })).status).toBe(429)
  })

  it('an ended window is forgotten and the budget is whole again', async () => {
    const rateLimits = { ...DEFAULT_RATE_LIMITS, create: { max: 2, windowS: 1 } }
    const [a, b] = await pair({ rateLimits, settleEveryMs: 200 })
    const token = await login(a.url, 71_201)
    const once = async () => [
      (await call(a.url, 'POST', '/mint/create', { token, body: { amount: '2', days: 30 } })).status,
      (await call(b.url, 'POST', '/mint/create', { token, body: { amount: '2', days: 30 } })).status,
      (await call(a.url, 'POST', '/mint/create', { token, body: { amount: '2', days: 30 } })).status,
    ]
    expect(await once()).toEqual([200, 200, 429])
    await new Promise((r) => setTimeout(r, 1_500))
    expect(await once()).toEqual([200, 200, 429])
    // The settle job drops the rows of ended windows.
    await new Promise((r) => setTimeout(r, 1_500))
    expect(await count(a, `SELECT COUNT(*) AS n FROM rate_limit_hits WHERE key LIKE 'create:%'`)).toBe(0)
  })

  it('the same Idempotency-Key sent to one instance, then to the other, makes one bond and the same answer', async () => {
    const [a, b] = await pair()
    const token = await login(a.url, 71_301)
    const headers = { 'idempotency-key': 'bond-once-7f3a' }
    const first = await call(a.url, 'POST', '/mint/create', { token, headers, body: { amount: '4', days: 30 } })
    const again = await call(b.url, 'POST', '/mint/create', { token, headers, body: { amount: '4', days: 30 } })
    expect(first.status).toBe(200)
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await count(b, 'SELECT COUNT(*) AS n FROM mints')).toBe(1)
    // Sent to both at once, it still makes one (the later transaction is re-run and finds the first's answer).
    const both = await Promise.all(
      [a.url, b.url].map((u) => call(u, 'POST', '/mint/create', { token, headers: { 'idempotency-key': 'bond-twice-91c2' }, body: { amount: '5', days: 30 } })),
    )
    expect(both.map((r) => r.status)).toEqual([200, 200])
    expect(both[1]!.body).toEqual(both[0]!.body)
    expect(await count(a, 'SELECT COUNT(*) AS n FROM mints')).toBe(2)
  })

  it('maintenance switched on one instance answers 503 on the other, and switched off there, 200 again on the first', async () => {
    const [a, b] = await pair()
    const token = await login(a.url, 71_401)
    const me = (base: string) => async () => (await call(base, 'GET', '/user/me', { token })).status
    // Both have read the settings already.
    expect(await me(a.url)()).toBe(200)
    expect(await me(b.url)()).toBe(200)
    await a.admin.setMaintenance(true)
    expect(await until(me(b.url), 503)).toBe(503)
    expect((await call(b.url, 'GET', '/user/me', { token })).body.msg).toMatch(/maintenance/i)
    await b.admin.setMaintenance(false)
    expect(await until(me(a.url), 200)).toBe(200)
  })

  it('a collective bonus set on one instance is in the other’s /user/me', async () => {
    const [a, b] = await pair()
    const token = await login(b.url, 71_501)
    const bonus = async () => (await call(b.url, 'GET', '/user/me', { token })).body.collective_bonus as string
    expect(await bonus()).toBe('0.1')
    await a.admin.setCollectiveBonus('0.35')
    expect(await until(bonus, '0.35')).toBe('0.35')
  })

  it('a refresh token presented twice on one instance cuts the session’s access token off on the other', async () => {
    const [a, b] = await pair()
    const res = await call(a.url, 'POST', '/auth/register', { body: { init_data: signInitData({ id: 71_601 }, Math.floor(Date.now() / 1000)) } })
    const { token, refresh } = res.body as { token: string; refresh: string }
    expect((await call(b.url, 'GET', '/user/me', { token })).status).toBe(200)
    expect((await call(a.url, 'POST', '/auth/refresh', { body: { refresh_token: refresh } })).status).toBe(200)
    expect((await call(a.url, 'POST', '/auth/refresh', { body: { refresh_token: refresh } })).status).toBe(401)
    const onB = async () => (await call(b.url, 'GET', '/user/me', { token })).status
    expect(await until(onB, 401)).toBe(401)
    expect((await call(b.url, 'GET', '/user/me', { token })).body.msg).toBe('Session was revoked')
  })
})
