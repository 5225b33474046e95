import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_BOT_TOKEN } from '../../server/main.ts'
import { localTreasuryAddress } from '../../stand-ins/chain/dev-keys.ts'
import { commentCell } from '../../stand-ins/chain/local-chain.ts'
import { attachLocalTon, type LocalTon } from '../../stand-ins/local-ton.ts'
import { signInitData, startTestServer, type TestServer } from '../server/support.ts'
import { eventually } from './support.ts'

/**
 * The backend's log as an operator reads it: JSON lines, each request's lines under its id, the id
 * answered in X-Request-Id, and none of the secrets a whole purchase and sale pass through. The log
 * runs at `trace` (everything Fastify says) into a buffer; the requests are raw fetches carrying
 * their credentials as a client does (Authorization, a cookie, init data in a body and in a query).
 */
const lines: string[] = []
let ts: TestServer
let ton: LocalTon

beforeAll(async () => {
  ts = await startTestServer({ treasuryAddress: localTreasuryAddress(), logger: { level: 'trace', destination: { write: (l) => void lines.push(l) } } })
  ts.clock.now = Math.floor(Date.now() / 1000)
  ton = await attachLocalTon(ts.server, { port: 0, payoutIntervalMs: 0, watchIntervalMs: 0, autoApprove: 'off' })
}, 60_000)
afterAll(async () => {
  await ton?.close()
  await ts?.close()
})

const api = async (method: string, path: string, o: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
  const res = await fetch(`${ts.url}/api${path}`, {
    method,
    headers: {
      ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
      ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
      cookie: 'axiom_session=cookie-secret-0123456789',
      ...(o.headers ?? {}),
    },
    ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
  })
  return { status: res.status, id: res.headers.get('x-request-id'), body: (await res.json().catch(() => null)) as any }
}

const logged = () => lines.map((l) => JSON.parse(l) as Record<string, any>)

describe('the log', () => {
  it('a whole purchase and sale leaves none of its secrets in the log, and each request is one id', async () => {
    const initData = signInitData({ id: 5101 }, ts.clock.now)
    const reg = await api('POST', '/auth/register', { body: { init_data: initData } })
    expect(reg.status).toBe(200)
    const { token, refresh } = reg.body as { token: string; refresh: string }
    // Init data where a careless client puts it: in the query.
    expect((await api('GET', `/user/me?init_data=${encodeURIComponent(initData)}`, { token })).status).toBe(200)

    const bond = await api('POST', '/mint/create', { token, body: { amount: 10, days: 30 } })
    expect(bond.status).toBe(200)
    await ton.chain.transfer(ton.chain.devWallet(1), [
      { to: ton.treasuryAddress, value: BigInt(bond.body.payment.amount_nano), body: commentCell(bond.body.payment.comment), bounce: true },
    ])
    await ton.service.settle()
    await eventually(async () => ((await api('GET', '/mint/', { token })).body.items as Array<{ id: number; status: string }>).find((m) => m.id === bond.body.mint.id)?.status === 'active')

    await ts.server.admin.credit(5101, '50')
    const sale = await api('POST', '/withdraw/create', { token, body: { token_amount: '20', address: ton.chain.devWallet(1).friendly } })
    expect(sale.status).toBe(200)
    await ton.service.settle()
    await ton.service.settle()
    expect((await ton.service.outgoing()).find((p) => p.withdrawalId === BigInt(sale.body.id))?.state).toBe('paid')

    const refreshed = await api('POST', '/auth/refresh', { token, body: { refresh } })
    expect(refreshed.status).toBe(200)
    expect((await api('POST', '/auth/logout', { token: refreshed.body.token, body: { refresh: refreshed.body.refresh } })).status).toBe(200)

    const text = lines.join('')
    expect(lines.length).toBeGreaterThan(10)
    const hashOf = new URLSearchParams(initData).get('hash')!
    for (const [what, secret] of [
      ['the access token', token],
      ['the refreshed access token', refreshed.body.token],
      ['the refresh token', refresh],
      ['the new refresh token', refreshed.body.refresh],
      ['the init data', initData],
      ['the init data, URL-encoded', encodeURIComponent(initData)],
      ["the init data's hash", hashOf],
      ['the cookie', 'cookie-secret-0123456789'],
      ['the bot token', DEV_BOT_TOKEN],
      ["the treasury's secret key", Buffer.from(ton.chain.treasury.keyPair.secretKey).toString('hex')],
    ] as const) {
      expect(text.includes(secret), what).toBe(false)
    }
    // The query's init data is there as a redacted parameter, not dropped with its route.
    expect(logged().some((l) => typeof l.req?.url === 'string' && l.req.url.startsWith('/api/user/me?init_data=[redacted]'))).toBe(true)
    // The chain's lines join the log as JSON.
    expect(logged().some((l) => l.component === 'chain')).toBe(true)
  }, 60_000)

  it('answers each request with its id, carries it into every line of that request, and keeps a plain id a proxy hands in', async () => {
    const handed = await api('GET', '/health', { headers: { 'x-request-id': 'nginx-7f3a9c01e2' } })
    expect(handed.id).toBe('nginx-7f3a9c01e2')
    const mine = logged().filter((l) => l.reqId === 'nginx-7f3a9c01e2')
    expect(mine.map((l) => l.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']))

    // Anything else handed in (spaces, a line break's worth of text, too long) is replaced by a new id.
    const forged = await api('GET', '/health', { headers: { 'x-request-id': 'evil id "injected"' } })
    expect(forged.id).toMatch(/^[0-9a-f-]{36}$/)
    const long = await api('GET', '/health', { headers: { 'x-request-id': 'a'.repeat(65) } })
    expect(long.id).not.toBe('a'.repeat(65))
    const none = await api('GET', '/health')
    expect(none.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(none.id).not.toBe(forged.id)
    expect(logged().some((l) => l.reqId === none.id && l.msg === 'request completed')).toBe(true)
  })
})
