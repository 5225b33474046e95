import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultConfig } from '../../server/config/config.ts'
import { optionsFromEnv } from '../../server/main.ts'
import { CURL_HEADERS, jsonHeaders, openRaw, PYTHON_REQUESTS_HEADERS, rawRequest, requestText, type RawReply } from './raw-http.ts'
import { SOME_ADDRESS, startTestServer, type Session, type TestServer } from './support.ts'

/**
 * The API toward clients other than the app: requests written byte by byte the way curl, python
 * requests and other HTTP clients write them, against the real backend on a random port. Every
 * answer that is an error carries JSON `{ msg }`, and a refused request changes nothing.
 */

let t: TestServer
let u: Session
let port: number

beforeAll(async () => {
  t = await startTestServer()
  u = await t.login(8001)
  port = t.server.port
  await t.server.admin.credit(8001, '100', 'referral_balance')
})
afterAll(() => t.close())

type Headers = ReadonlyArray<readonly [string, string]>
const auth = (): Headers => [['Authorization', `Bearer ${u.token}`]]
const send = (method: string, path: string, headers: Headers, body?: string, timeoutMs?: number) =>
  rawRequest(port, requestText({ method, path, port, headers, ...(body !== undefined ? { body } : {}) }), timeoutMs)

/** A JSON error answer: the status, a JSON content type and exactly `{ msg }`. */
const expectMsg = (r: RawReply, status: number, msg?: string | RegExp) => {
  expect(r.status, r.text).toBe(status)
  expect(r.headers['content-type']).toMatch(/^application\/json/)
  expect(Object.keys(r.json ?? {})).toEqual(['msg'])
  expect(typeof r.json.msg).toBe('string')
  if (typeof msg === 'string') expect(r.json.msg).toBe(msg)
  else if (msg) expect(r.json.msg).toMatch(msg)
}

/** How clients send a POST that has no payload, with a JSON content type. */
const BODILESS: Array<{ readonly client: string; readonly headers: Headers; readonly body?: string }> = [
  // curl -X POST -H 'Content-Type: application/json' URL: no Content-Length at all.
  { client: 'curl', headers: [...CURL_HEADERS, ['Content-Type', 'application/json']] },
  // requests.post(url, headers={'Content-Type': 'application/json'})
  { client: 'python requests', headers: [...PYTHON_REQUESTS_HEADERS, ['Content-Type', 'application/json'], ['Content-Length', '0']] },
  // axios / OkHttp style, with a charset.
  { client: 'a charset', headers: [['Accept', 'application/json, text/plain, */*'], ['Content-Type', 'application/json; charset=utf-8'], ['Content-Length', '0']] },
  // A streaming client that ends an empty chunked body.
  { client: 'an empty chunked body', headers: [['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked']], body: '0\r\n\r\n' },
  // A client that writes a newline as the body.
  { client: 'a whitespace body', headers: [['Content-Type', 'application/json'], ['Content-Length', '2']], body: '\r\n' },
  // Other content types with nothing in them.
  { client: 'form-encoded, empty', headers: [['Content-Type', 'application/x-www-form-urlencoded'], ['Content-Length', '0']] },
  { client: 'text/plain, empty', headers: [['Content-Type', 'text/plain'], ['Content-Length', '0']] },
  { client: 'text/plain, a newline', headers: [['Content-Type', 'text/plain; charset=utf-8'], ['Content-Length', '1']], body: '\n' },
]

const createBond = async (amount: number, paid: boolean): Promise<number> => {
  const r = await u.call('POST', '/mint/create', { body: { amount, days: 30 }, headers: { 'idempotency-key': `bond-${amount}-${Math.random()}` } })
  expect(r.status).toBe(200)
  const id = Number(r.body.mint.id)
  if (paid) await t.server.markMintPaid(id)
  return id
}
const bondStatus = async (id: number) => ((await u.call('GET', '/mint/')).body.items as Array<{ id: number | string; status: string }>).find((m) => Number(m.id) === id)?.status
const balance = async () => (await u.call('GET', '/user/me')).body.balance_token as number | string

describe('a bodiless POST with Content-Type: application/json is no payload, not an error', () => {
  for (const c of BODILESS) {
    it(`share-message and the tonProof payload are served, not refused as bodies (${c.client})`, async () => {
      // Without a Bot API the share is Telegram's to refuse (424), not the body's (400/422).
      const share = await send('POST', '/api/user/share-message', [...c.headers, ...auth()], c.body)
      expect(share.status, share.text).toBe(424)
      expect(share.json).toEqual({ msg: expect.any(String) })
      const payload = await send('POST', '/api/wallet/ton-proof/payload', [...c.headers, ...auth()], c.body)
      expect(payload.status, payload.text).toBe(200)
      expect(payload.json).toEqual({ payload: expect.any(String) })
    })
  }

  it('cancels a paid bond exactly once: the refund arrives once, a second cancel is refused and changes nothing', async () => {
    for (const [i, c] of BODILESS.entries()) {
      const id = await createBond(10 + i, true)
      const before = Number(await balance())
      const first = await send('POST', `/api/mint/${id}/cancel`, [...c.headers, ...auth()], c.body)
      expect(first.status, `${c.client}: ${first.text}`).toBe(200)
      expect(await bondStatus(id)).toBe('canceled')
      // The principal less the 10 % penalty.
      expect(Number(await balance())).toBeCloseTo(before + (10 + i) * 0.9, 6)
      const snapshot = await t.server.admin.snapshot()
      const again = await send('POST', `/api/mint/${id}/cancel`, [...c.headers, ...auth()], c.body)
      expectMsg(again, 400)
      expect(await t.server.admin.snapshot()).toBe(snapshot)
    }
  })

  it('cancels a farming link once, refunding its unused part', async () => {
    const link = await u.call('POST', '/farming/create', {
      body: { amount: 1, days: 10, count_activations: 3, from_ref_balance: true, from_task_balance: false, is_multilink: true, is_for_me: false },
    })
    expect(link.status).toBe(200)
    const ref = async () => Number((await u.call('GET', '/user/me')).body.referral_balance)
    const before = await ref()
    const first = await send('POST', `/api/farming/${link.body.id}/cancel`, [...CURL_HEADERS, ['Content-Type', 'application/json'], ...auth()])
    expect(first.status, first.text).toBe(200)
    expect(await ref()).toBeCloseTo(before + 3, 6)
    const snapshot = await t.server.admin.snapshot()
    expectMsg(await send('POST', `/api/farming/${link.body.id}/cancel`, [...PYTHON_REQUESTS_HEADERS, ['Content-Type', 'application/json'], ['Content-Length', '0'], ...auth()]), 400)
    expect(await t.server.admin.snapshot()).toBe(snapshot)
  })

  it('a call that needs a payload, sent empty, says which field is missing (422)', async () => {
    const snapshot = await t.server.admin.snapshot()
    expectMsg(await send('POST', '/api/mint/create', [...PYTHON_REQUESTS_HEADERS, ['Content-Type', 'application/json'], ['Content-Length', '0'], ...auth()]), 422, 'amount is required')
    expectMsg(await send('POST', '/api/auth/register', [...CURL_HEADERS, ['Content-Type', 'application/json']]), 401, 'Invalid WebApp init data')
    expect(await t.server.admin.snapshot()).toBe(snapshot)
  })
})

describe('URLs the router cannot take', () => {
  it('a badly percent-encoded id is a 400 with msg, and the bond stays cancellable', async () => {
    const id = await createBond(7, false)
    const snapshot = await t.server.admin.snapshot()
    for (const path of ['/api/mint/%zz/cancel', `/api/mint/${id}%/cancel`, '/api/mint/%E0%A4%A/cancel', '/api/farming/%ff/cancel'])
      expectMsg(await send('POST', path, [...CURL_HEADERS, ...auth()]), 400, 'The URL is not validly encoded')
    expect(await t.server.admin.snapshot()).toBe(snapshot)
    expect(await bondStatus(id)).toBe('pending')
    const cancel = await send('POST', `/api/mint/${id}/cancel`, [...CURL_HEADERS, ...auth()])
    expect(cancel.status, cancel.text).toBe(200)
    expect(await bondStatus(id)).toBe('canceled')
  })

  it('a bad encoding outside a parameter is a 400 or 404 with msg, never Fastify’s shape', async () => {
    for (const path of ['/api/%zz', '/api/user/%zz', '/%zz'])
      for (const method of ['GET', 'POST']) {
        const r = await send(method, path, [...CURL_HEADERS, ...auth()])
        expect([400, 404], `${method} ${path}`).toContain(r.status)
        expectMsg(r, r.status)
      }
  })

  it('an over-long path parameter is a 414 with msg', async () => {
    const snapshot = await t.server.admin.snapshot()
    expectMsg(await send('POST', `/api/mint/${'1'.repeat(150)}/cancel`, [...CURL_HEADERS, ...auth()]), 414, 'The URL is too long')
    expectMsg(await send('POST', `/api/farming/${'9'.repeat(5000)}/cancel`, [...PYTHON_REQUESTS_HEADERS, ['Content-Length', '0'], ...auth()]), 414, 'The URL is too long')
    expect(await t.server.admin.snapshot()).toBe(snapshot)
  })

  it('a request line or headers over 16 KiB are a 431 with msg', async () => {
    expectMsg(await send('GET', `/api/mint/?q=${'a'.repeat(20_000)}`, [...CURL_HEADERS, ...auth()]), 431, /headers are too large/)
    expectMsg(await send('GET', '/api/user/me', [...CURL_HEADERS, ...auth(), ['Cookie', `session=${'c'.repeat(17_000)}`]]), 431, /headers are too large/)
    const many: Headers = Array.from({ length: 400 }, (_, i) => [`X-Trace-${i}`, 'x'.repeat(40)] as const)
    expectMsg(await send('POST', '/api/user/share-message', [...CURL_HEADERS, ...auth(), ...many, ['Content-Length', '0']]), 431, /headers are too large/)
    // Just under the limit still works.
    const ok = await send('GET', '/api/user/me', [...CURL_HEADERS, ...auth(), ['Cookie', `session=${'c'.repeat(14_000)}`]])
    expect(ok.status).toBe(200)
  })

  it('bytes that are not HTTP are a 400 with msg', async () => {
    const r = await rawRequest(port, 'HELLO THERE\r\n\r\n')
    expectMsg(r, 400)
    const badHeader = await rawRequest(port, `GET /api/user/me HTTP/1.1\r\nHost: x\r\nBad Header Name: 1\r\n\r\n`)
    expectMsg(badHeader, 400)
  })
})

describe('bodies', () => {
  const post = (path: string, body: string, extra: Headers = []) => send('POST', path, [...PYTHON_REQUESTS_HEADERS, ...extra, ...jsonHeaders(body, u.token)], body)

  it('malformed JSON is a 400 with msg and creates nothing', async () => {
    const snapshot = await t.server.admin.snapshot()
    for (const body of ['{"amount": 10,', "{'amount': 10, 'days': 30}", '{"amount": 10 "days": 30}', 'amount=10&days=30', '\u0000', '{"amount":10,"days":30}}'])
      expectMsg(await post('/api/mint/create', body), 400, 'The body is not valid JSON')
    expect(await t.server.admin.snapshot()).toBe(snapshot)
  })

  it('curl’s Expect: 100-continue on a body over 1 KiB gets 100 Continue, then the answer', async () => {
    const body = JSON.stringify({ amount: 6, days: 30, note: 'n'.repeat(2000) })
    const c = await openRaw(port)
    await c.write(requestText({ method: 'POST', path: '/api/mint/create', port, headers: [...CURL_HEADERS, ...jsonHeaders(body, u.token), ['Expect', '100-continue']] }))
    await expect.poll(() => c.peek()).toMatch(/^HTTP\/1\.1 100 Continue\r\n/)
    await c.write(body)
    const r = await c.reply()
    expect(r.status, r.text).toBe(200)
    expect(r.json.mint.status).toBe('pending')
    expect(r.json.payment.amount_nano).toMatch(/^\d+$/)
    c.close()
  })

  it('a body poisoning the prototype is refused with 400', async () => {
    const snapshot = await t.server.admin.snapshot()
    expectMsg(await post('/api/mint/create', '{"amount":10,"days":30,"__proto__":{"isAdmin":true}}'), 400)
    expectMsg(await post('/api/mint/create', '{"amount":10,"days":30,"constructor":{"prototype":{"isAdmin":true}}}'), 400)
    expect(await t.server.admin.snapshot()).toBe(snapshot)
  })

  const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`
  const withNote = (valid: Record<string, unknown>, note: string) => `${JSON.stringify(valid).slice(0, -1)},"note":${note}}`

  it('deep nesting in an ignored field of each idempotent create is a 400 with msg, never a 500, and creates nothing', async () => {
    const active = await createBond(20, true)
    const creates: Array<[string, Record<string, unknown>]> = [
      ['/api/mint/create', { amount: 5, days: 30 }],
      ['/api/staking/create', { mint_id: active }],
      ['/api/farming/create', { amount: 1, days: 10, count_activations: 2, from_ref_balance: true, from_task_balance: false, is_multilink: true, is_for_me: false }],
      ['/api/withdraw/create', { from_ref_balance: false, token_amount: 2, address: SOME_ADDRESS }],
      ['/api/withdraw/transfer-from-referral-balance', { token_amount: 1 }],
    ]
    const snapshot = await t.server.admin.snapshot()
    for (const [path, valid] of creates) {
      // Within the route's 16 KiB body limit: refused for its nesting.
      for (const depth of [32, 1_000]) {
        expectMsg(await post(path, withNote(valid, nested(depth))), 400, /nested too deeply/)
        expectMsg(await post(path, withNote(valid, `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`), [['Idempotency-Key', `deep-${path}-${depth}`]]), 400, /nested too deeply/)
      }
      // Beyond it: refused for its size before any of it is parsed.
      expectMsg(await post(path, withNote(valid, nested(200_000))), 413, /body is too large/)
    }
    expect(await t.server.admin.snapshot()).toBe(snapshot)
  })

  it('nesting up to the limit is fine, and brackets inside strings do not count', async () => {
    const atLimit = await post('/api/mint/create', withNote({ amount: 3, days: 30 }, nested(31)))
    expect(atLimit.status, atLimit.text).toBe(200)
    const inString = await post('/api/mint/create', withNote({ amount: 4, days: 30 }, JSON.stringify('['.repeat(15_000) + '\\"{')))
    expect(inString.status, inString.text).toBe(200)
  })

  it('deep nesting anywhere else is a 400 with msg too', async () => {
    for (const path of ['/api/auth/register', '/api/auth/refresh', '/api/task/start', '/api/wallet/ton-proof/check', '/api/user/share-message'])
      expectMsg(await post(path, nested(5_000)), 400, /nested too deeply/)
    // The photo's route takes large bodies: its nesting is refused all the same.
    expectMsg(await post('/api/task/validate', nested(100_000)), 400, /nested too deeply/)
  })
})

describe('timeouts', () => {
  let slow: TestServer
  let s: Session
  const REQUEST_TIMEOUT_MS = 400

  beforeAll(async () => {
    slow = await startTestServer({ requestTimeoutMs: REQUEST_TIMEOUT_MS })
    s = await slow.login(8101)
  })
  afterAll(() => slow.close())

  const slowPort = () => slow.server.port

  it('a body that does not arrive in time is a 408 with msg, the connection closes, and nothing is created', async () => {
    const snapshot = await slow.server.admin.snapshot()
    const body = JSON.stringify({ amount: 10, days: 30 })
    const c = await openRaw(slowPort())
    const started = Date.now()
    await c.write(requestText({ method: 'POST', path: '/api/mint/create', port: slowPort(), headers: [...PYTHON_REQUESTS_HEADERS, ...jsonHeaders(body, s.token)], body: body.slice(0, 8) }))
    // Trickle a few more bytes, slower than the deadline allows for the whole body.
    for (const ch of body.slice(8, 12)) {
      await sleep(REQUEST_TIMEOUT_MS / 3)
      await c.write(ch).catch(() => {})
    }
    const r = await c.reply(5000)
    expectMsg(r, 408, 'The request took too long to arrive')
    expect(Date.now() - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50)
    await c.closed
    // The rest of the body, too late, goes nowhere.
    await c.write(body.slice(12)).catch(() => {})
    await sleep(100)
    expect(await slow.server.admin.snapshot()).toBe(snapshot)
    expect((await s.call('GET', '/mint/')).body.items).toEqual([])
  })

  it('headers that do not arrive in time are a 408 with msg', async () => {
    const c = await openRaw(slowPort())
    await c.write(`POST /api/user/share-message HTTP/1.1\r\nHost: 127.0.0.1:${slowPort()}\r\nUser-Agent: curl/8.5.0\r\n`)
    expectMsg(await c.reply(5000), 408, 'The request took too long to arrive')
    await c.closed
  })

  it('a body that trickles in but completes in time is served', async () => {
    const body = JSON.stringify({ amount: 2, days: 10 })
    const c = await openRaw(slowPort())
    await c.write(requestText({ method: 'POST', path: '/api/mint/create', port: slowPort(), headers: [...CURL_HEADERS, ...jsonHeaders(body, s.token)], body: '' }))
    for (const part of [body.slice(0, 5), body.slice(5, 15), body.slice(15)]) {
      await sleep(REQUEST_TIMEOUT_MS / 8)
      await c.write(part)
    }
    const r = await c.reply()
    expect(r.status, r.text).toBe(200)
    c.close()
  })

  it('a connection that never sends a byte gets a 408 with msg at the request timeout and is closed', async () => {
    const c = await openRaw(slowPort())
    const started = Date.now()
    expectMsg(await c.reply(5000), 408, 'The request took too long to arrive')
    await c.closed
    expect(Date.now() - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50)
  })

  it('a keep-alive connection waits between requests without a 408', async () => {
    const c = await openRaw(slowPort())
    const request = requestText({ method: 'GET', path: '/api/user/me', port: slowPort(), headers: [...PYTHON_REQUESTS_HEADERS, ['Authorization', `Bearer ${s.token}`]] })
    await c.write(request)
    expect((await c.reply()).status).toBe(200)
    await sleep(REQUEST_TIMEOUT_MS * 2)
    await c.write(request)
    expect((await c.reply()).status).toBe(200)
    c.close()
  })

  it('the timeout is 30 s unless AXIOM_REQUEST_TIMEOUT_MS says otherwise; a bad value stops the start', () => {
    expect(defaultConfig().requestTimeoutMs).toBe(30_000)
    expect(optionsFromEnv({}).requestTimeoutMs).toBeUndefined()
    expect(optionsFromEnv({ AXIOM_REQUEST_TIMEOUT_MS: '15000' }).requestTimeoutMs).toBe(15_000)
    for (const bad of ['0', '-1', '1.5', 'soon', ''])
      expect(() => optionsFromEnv({ AXIOM_REQUEST_TIMEOUT_MS: bad }), bad).toThrow(/AXIOM_REQUEST_TIMEOUT_MS/)
  })

  it('a live socket outlives the request timeout many times over and still gets pushes', async () => {
    const live = await slow.socket(s)
    await sleep(REQUEST_TIMEOUT_MS * 4)
    expect(live.ws.readyState).toBe(live.ws.OPEN)
    slow.server.tick()
    await live.next('price_update')
    live.close()
  })
})
