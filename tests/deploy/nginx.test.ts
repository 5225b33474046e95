import { request } from 'node:http'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contentSecurityPolicy, HSTS } from '../../deploy/security-headers.ts'
import { optionsFromEnv, type RunningServer, startServer } from '../../server/main.ts'
import { signInitData } from '../server/support.ts'
import { nginxUnavailable, type ShippedNginx, startShippedNginx } from './shipped-nginx.ts'

/**
 * The deployment's edge: deploy/nginx.conf run by Debian's nginx in front of the reference backend
 * started with the compose file's setting (AXIOM_TRUST_PROXY=1), met by requests written on raw
 * HTTP connections, with the X-Forwarded-For a client can forge.
 *
 * 127.0.0.1 stands for a client on the internet reaching nginx directly; 127.0.0.2 for the TLS front
 * on the host (in compose, the network's gateway, which the file trusts).
 */

const skipped = nginxUnavailable()
if (skipped) console.warn(`tests/deploy/nginx.test.ts SKIPPED: ${skipped}`)

const FRONT = '127.0.0.2'
const REGISTER_MAX = 3

interface Answer {
  readonly status: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly body: string
}

/** One request on its own connection, from `from` (a loopback address), headers as given. */
const send = (
  url: string,
  method: string,
  path: string,
  o: { headers?: Record<string, string>; body?: string | Buffer; from?: string } = {},
): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url)
    const req = request(
      {
        host: hostname,
        port,
        method,
        path,
        localAddress: o.from ?? '127.0.0.1',
        agent: false,
        headers: { ...(o.body !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(o.body)) } : {}), ...o.headers },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
      },
    )
    req.on('error', reject)
    req.end(o.body)
  })

const registerBody = (id: number) => JSON.stringify({ init_data: signInitData({ id }, Math.floor(Date.now() / 1000)) })

describe.skipIf(skipped !== null)('deploy/nginx.conf in front of the backend', () => {
  let backend: RunningServer
  let nginx: ShippedNginx
  let root: string
  let nextId = 970_000

  beforeAll(async () => {
    // The backend as the compose file starts it (its environment read by the entry's own parser),
    // on a register limit small enough to reach.
    backend = await startServer({
      ...optionsFromEnv({ AXIOM_TRUST_PROXY: '1', AXIOM_RATE_LIMIT_REGISTER: `${REGISTER_MAX}/60`, PORT: '0', HOST: '127.0.0.1', AXIOM_DB: ':memory:' }),
      priceTickMs: 60_000,
    })
    root = mkdtempSync(join(tmpdir(), 'axiom-nginx-root-'))
    mkdirSync(join(root, 'assets'))
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>AXIOM</title><script type="module" src="/assets/index-abc123.js"></script>')
    writeFileSync(join(root, 'assets', 'index-abc123.js'), 'console.log("AXIOM")')
    nginx = await startShippedNginx({ backendPort: backend.port, root, front: FRONT })
  })

  afterAll(async () => {
    await nginx?.close()
    await backend?.close()
    if (root) rmSync(root, { recursive: true, force: true })
  })

  const register = (o: { forwardedFor?: string; from?: string } = {}) =>
    send(nginx.url, 'POST', '/api/auth/register', {
      body: registerBody(nextId++),
      ...(o.from ? { from: o.from } : {}),
      ...(o.forwardedFor !== undefined ? { headers: { 'x-forwarded-for': o.forwardedFor } } : {}),
    })

  it('a client that forges a new X-Forwarded-For on every request is still one client: the register limit trips', async () => {
    const statuses: number[] = []
    for (let n = 1; n <= REGISTER_MAX + 2; n++) statuses.push((await register({ forwardedFor: `1.2.3.${n}` })).status)
    expect(statuses).toEqual([...Array(REGISTER_MAX).fill(200), 429, 429])
    // Forged chains, or one naming the trusted front itself, change nothing either.
    expect((await register({ forwardedFor: `9.9.9.9, ${FRONT}` })).status).toBe(429)
    expect((await register({ forwardedFor: '' })).status).toBe(429)
  })

  it("names each request with nginx's own id, not one a client wrote, and the backend answers it", async () => {
    // Any /api answer is the backend's: a route it does not have answers 404 with the id all the same.
    const a = await send(nginx.url, 'GET', '/api/no-such-route', { headers: { 'x-request-id': 'client-chosen-id-0001' } })
    expect(a.status).toBe(404)
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/)
    const b = await send(nginx.url, 'GET', '/api/no-such-route')
    expect(b.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/)
    expect(b.headers['x-request-id']).not.toBe(a.headers['x-request-id'])
  })

  it('behind the TLS front, each client is the address the front appended, not what the client wrote before it', async () => {
    // The front appends its peer (the real client) to whatever the client sent.
    const viaFront = (client: string, forged: string) => register({ from: FRONT, forwardedFor: `${forged}, ${client}` })
    const statuses: number[] = []
    for (let n = 1; n <= REGISTER_MAX + 1; n++) statuses.push((await viaFront('203.0.113.10', `1.2.3.${n}`)).status)
    expect(statuses).toEqual([...Array(REGISTER_MAX).fill(200), 429])
    // Another client behind the same front has its own budget.
    expect((await viaFront('203.0.113.11', '1.2.3.1')).status).toBe(200)
  })

  const expectSecurityHeaders = (a: Answer) => {
    expect(a.headers['content-security-policy']).toBe(contentSecurityPolicy('production'))
    expect(a.headers['x-content-type-options']).toBe('nosniff')
    expect(a.headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
    expect(a.headers['strict-transport-security']).toBe(HSTS)
    // server_tokens off: no version to look up.
    expect(a.headers.server).toBe('nginx')
  }

  it("the app's page and files carry the security headers with their cache rules; a route is the page", async () => {
    const page = await send(nginx.url, 'GET', '/')
    expect(page.status).toBe(200)
    expect(page.body).toContain('<title>AXIOM</title>')
    expectSecurityHeaders(page)
    expect(page.headers['cache-control']).toBe('no-cache')
    const route = await send(nginx.url, 'GET', '/referral')
    expect(route.body).toBe(page.body)
    expectSecurityHeaders(route)
    expect(route.headers['cache-control']).toBe('no-cache')
    const asset = await send(nginx.url, 'GET', '/assets/index-abc123.js')
    expect(asset.status).toBe(200)
    expectSecurityHeaders(asset)
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const missing = await send(nginx.url, 'GET', '/assets/gone-123.js')
    expect(missing.status).toBe(404)
    expectSecurityHeaders(missing)
  })

  it("/api answers (success, refusal, 429) carry them too, and nginx adds no Cache-Control of its own", async () => {
    const ok = await send(nginx.url, 'GET', '/api/maintenance/')
    expect(ok.status).toBe(200)
    expectSecurityHeaders(ok)
    expect(ok.headers['cache-control']).toBeUndefined()
    const refused = await send(nginx.url, 'GET', '/api/user/me')
    expect(refused.status).toBe(401)
    expect(JSON.parse(refused.body)).toHaveProperty('msg')
    expectSecurityHeaders(refused)
    const tooMany = await register()
    expect(tooMany.status).toBe(429)
    expectSecurityHeaders(tooMany)
    const ready = await send(nginx.url, 'GET', '/ready')
    expect(ready.status).toBe(200)
    expectSecurityHeaders(ready)
  })

  it('a JSON call over its body limit is answered 413 with the JSON {msg} the backend gives, by the backend or, far over, by nginx alike', async () => {
    const padded = (bytes: number) => JSON.stringify({ init_data: 'x'.repeat(bytes) })
    const direct = await send(backend.url, 'POST', '/api/auth/refresh', { body: padded(17 * 1024) })
    expect(direct.status).toBe(413)
    for (const bytes of [17 * 1024, 64 * 1024, 1024 * 1024]) {
      const a = await send(nginx.url, 'POST', '/api/auth/refresh', { body: padded(bytes) })
      expect(a.status).toBe(413)
      expect(a.headers['content-type']).toMatch(/^application\/json/)
      expect(JSON.parse(a.body)).toEqual(JSON.parse(direct.body))
      expectSecurityHeaders(a)
    }
  })

  it("a 2 MB photo reaches the backend's photo route (its own answer, not a 413); over 9 MB nginx answers as the backend would", async () => {
    // A signed-in user (through the front, as another client, so no other test's budget is touched).
    const signedIn = await send(nginx.url, 'POST', '/api/auth/register', { body: registerBody(nextId++), from: FRONT, headers: { 'x-forwarded-for': '198.51.100.99' } })
    expect(signedIn.status).toBe(200)
    const auth = { authorization: `Bearer ${(JSON.parse(signedIn.body) as { token: string }).token}` }
    const photo = (bytes: number) => JSON.stringify({ task_id: 2, photo: 'A'.repeat(bytes) })
    const a = await send(nginx.url, 'POST', '/api/task/validate', { body: photo(2 * 1024 * 1024), headers: auth })
    // The backend's own answer about the photo (not a decodable image, or not this task's): not nginx's 413.
    expect(a.status).not.toBe(413)
    expect(a.headers['content-type']).toMatch(/^application\/json/)
    expect(JSON.parse(a.body)).toHaveProperty('msg')
    const direct = await send(backend.url, 'POST', '/api/task/validate', { body: photo(8 * 1024 * 1024 + 1), headers: auth })
    expect(direct.status).toBe(413)
    const huge = await send(nginx.url, 'POST', '/api/task/validate', { body: photo(10 * 1024 * 1024), headers: auth })
    expect(huge.status).toBe(413)
    expect(huge.headers['content-type']).toMatch(/^application\/json/)
    expect(JSON.parse(huge.body)).toEqual(JSON.parse(direct.body))
    expectSecurityHeaders(huge)
  })
})
