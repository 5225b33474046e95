import type { Socket } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import type { WebSocket } from 'ws'
import { DEFAULT_RATE_LIMITS, type RateCount, type RateLimitConfig, type RateLimitStore } from '../../server/main.ts'
import { rawUpgrade, type UpgradeReply } from './raw-http.ts'
import { openSocket, startTestServer, type TestServer } from './support.ts'

/**
 * The sockets' per-IP limits, met by upgrade requests written by hand on a raw TCP connection (as a
 * script would send them) and by `ws` clients.
 */

const servers: TestServer[] = []
const raws: Socket[] = []
const clients: WebSocket[] = []
afterAll(async () => {
  for (const s of raws) s.destroy()
  for (const ws of clients) ws.terminate()
  await Promise.all(servers.map((t) => t.close()))
})

const serverWith = async (sockets: RateLimitConfig['sockets'], trustProxy: number, more: Parameters<typeof startTestServer>[0] = {}) => {
  const t = await startTestServer({ rateLimits: { ...DEFAULT_RATE_LIMITS, sockets }, trustProxy, ...more })
  servers.push(t)
  return t
}

/** An upgrade written by hand, with X-Forwarded-For when given. */
const upgrade = (t: TestServer, path: string, forwardedFor?: string): Promise<UpgradeReply> =>
  rawUpgrade(t.server.port, path, forwardedFor ? [`X-Forwarded-For: ${forwardedFor}`] : [], (s) => raws.push(s))

const expectRateRefusal = async (r: UpgradeReply) => {
  expect(r.status).toBe(429)
  const after = Number(r.headers['retry-after'])
  expect(after).toBeGreaterThanOrEqual(1)
  expect(after).toBeLessThanOrEqual(60)
  expect(r.headers['content-type']).toMatch(/^application\/json/)
  expect(JSON.parse(r.body)).toEqual({ msg: `Too many requests, try again in ${after} s` })
  await r.closed
}

describe('socket upgrades a minute, per IP', () => {
  it('the upgrade past the limit is a 429 with Retry-After and a {msg}, then closed; another IP behind the trusted proxy is still served', async () => {
    // One trusted proxy: the client is the last address, the one the proxy appended; what stands before it the client wrote.
    const t = await serverWith({ upgrades: { max: 3, windowS: 60 }, open: 100 }, 1)
    // Both sockets count against one budget.
    for (const path of ['/api/ws/', '/api/ws/candles', '/api/ws/candles']) {
      const r = await upgrade(t, path, `10.0.0.${path.length}, 203.0.113.7`)
      expect(r.status).toBe(101)
      expect(r.headers['sec-websocket-accept']).toBe('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=')
    }
    await expectRateRefusal(await upgrade(t, '/api/ws/', '203.0.113.7'))
    await expectRateRefusal(await upgrade(t, '/api/ws/candles', '10.0.0.2, 203.0.113.7'))
    expect((await upgrade(t, '/api/ws/candles', '203.0.113.8')).status).toBe(101)
  })

  it('without trust proxy, X-Forwarded-For is ignored: every upgrade is the peer’s', async () => {
    const t = await serverWith({ upgrades: { max: 2, windowS: 60 }, open: 100 }, 0)
    expect((await upgrade(t, '/api/ws/candles', '203.0.113.1')).status).toBe(101)
    expect((await upgrade(t, '/api/ws/candles', '203.0.113.2')).status).toBe(101)
    await expectRateRefusal(await upgrade(t, '/api/ws/candles', '203.0.113.3'))
    await expectRateRefusal(await upgrade(t, '/api/ws/candles'))
  })

  it('instances on one shared store share an IP’s upgrades', async () => {
    // A store outside the servers, as PostgreSQL's table is: one count for both.
    const counts = new Map<string, { n: number; until: number }>()
    const rules: string[] = []
    const factory = (rule: string): RateLimitStore => {
      rules.push(rule)
      return {
        incr: async (key: string, windowMs: number): Promise<RateCount> => {
          const now = Date.now()
          const c = counts.get(key)
          const next = c && c.until > now ? { n: c.n + 1, until: c.until } : { n: 1, until: now + windowMs }
          counts.set(key, next)
          return { current: next.n, ttlMs: next.until - now }
        },
      }
    }
    const sockets = { upgrades: { max: 3, windowS: 60 }, open: 100 }
    const one = await serverWith(sockets, 0, { rateLimitStore: factory })
    const two = await serverWith(sockets, 0, { rateLimitStore: factory })
    expect(rules).toContain('sockets')
    expect((await upgrade(one, '/api/ws/candles')).status).toBe(101)
    expect((await upgrade(two, '/api/ws/candles')).status).toBe(101)
    expect((await upgrade(one, '/api/ws/')).status).toBe(101)
    await expectRateRefusal(await upgrade(two, '/api/ws/candles'))
  })

  it('a ws client past the limit meets the 429 (not a silent drop)', async () => {
    const t = await serverWith({ upgrades: { max: 1, windowS: 60 }, open: 100 }, 0)
    clients.push(await openSocket(t.url, '/api/ws/candles'))
    const { WebSocket } = await import('ws')
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/api/ws/candles`)
    const answer = await new Promise<{ status: number; retryAfter: string | undefined; body: string }>((resolve, reject) => {
      ws.once('unexpected-response', (req, res) => {
        let body = ''
        res.on('data', (c: Buffer) => (body += c.toString('utf8')))
        res.on('end', () => {
          req.destroy()
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body })
        })
      })
      ws.once('open', () => reject(new Error('opened past the limit')))
    })
    expect(answer.status).toBe(429)
    expect(JSON.parse(answer.body)).toEqual({ msg: `Too many requests, try again in ${answer.retryAfter} s` })
  })
})

describe('sockets open at once, per IP', () => {
  it('past the cap an upgrade is refused with a 429 {msg}; closing one socket frees a place', async () => {
    const t = await serverWith({ upgrades: { max: 1000, windowS: 60 }, open: 2 }, 1)
    const first = await openSocket(t.url, '/api/ws/candles')
    const second = await openSocket(t.url, '/api/ws/')
    clients.push(first, second)
    const refused = await upgrade(t, '/api/ws/candles')
    expect(refused.status).toBe(429)
    expect(refused.headers['retry-after']).toBeUndefined()
    expect(JSON.parse(refused.body)).toEqual({ msg: 'Too many open sockets from this address (at most 2): close one first' })
    await refused.closed
    // Another IP (through the trusted proxy) has places of its own.
    expect((await upgrade(t, '/api/ws/candles', '198.51.100.4')).status).toBe(101)

    const gone = new Promise((resolve) => first.once('close', resolve))
    first.close()
    await gone
    // The server sees the close a moment after the client: the place is back within that moment.
    let status = 0
    for (let i = 0; i < 40 && status !== 101; i++) {
      const r = await upgrade(t, '/api/ws/candles')
      status = r.status
      if (status !== 101) await new Promise((resolve) => setTimeout(resolve, 25))
    }
    expect(status).toBe(101)
    // And the cap holds again: two open from 127.0.0.1.
    expect((await upgrade(t, '/api/ws/')).status).toBe(429)
  })
})
