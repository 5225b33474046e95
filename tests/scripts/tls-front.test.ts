/**
 * The benches' TLS front (scripts/tls-front.ts) serves a build as deployed: over TLS and HTTP/2 with
 * the fixture certificate, gzip, the cache headers of deploy/nginx.conf, the page for any route, and
 * /api (HTTP and WebSocket) passed to the backend as it came. Checked with Node's own HTTP/2 client
 * trusting only that certificate, and a raw TLS socket for the WebSocket upgrade.
 */
import { mkdtempSync, readFileSync, rmSync, mkdirSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import http2 from 'node:http2'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import tls from 'node:tls'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTlsFront, type TlsFront, trustTlsFrontFlag } from '../../scripts/tls-front.ts'
import { contentSecurityPolicy, HSTS } from '../../deploy/security-headers.ts'

const CA = readFileSync(new URL('../../scripts/fixtures/bench-tls-127.0.0.1.cert.pem', import.meta.url))
const PAGE = '<!doctype html><title>AXIOM</title>'
const SCRIPT = `export const x = "${'axiom '.repeat(200)}"`

interface Answer {
  readonly status: number
  readonly headers: http2.IncomingHttpHeaders
  readonly body: Buffer
}

let root: string
let backend: http.Server
let front: TlsFront
let client: http2.ClientHttp2Session
const upgraded: Array<{ destroy(): void }> = []
const seen: Array<{ method: string; url: string; host: string; body: string }> = []

const ask = (path: string, headers: http2.OutgoingHttpHeaders = {}, body?: string): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const req = client.request({ ':path': path, ':method': body === undefined ? 'GET' : 'POST', ...headers })
    const chunks: Buffer[] = []
    let answer: http2.IncomingHttpHeaders = {}
    req.on('response', (h) => (answer = h))
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve({ status: Number(answer[':status']), headers: answer, body: Buffer.concat(chunks) }))
    req.on('error', reject)
    req.end(body)
  })

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'axiom-tls-front-'))
  mkdirSync(join(root, 'assets'))
  writeFileSync(join(root, 'index.html'), PAGE)
  writeFileSync(join(root, 'assets', 'app-1a2b3c.js'), SCRIPT)
  writeFileSync(join(tmpdir(), 'axiom-tls-front-secret.txt'), 'not to be served')
  backend = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', host: req.headers.host ?? '', body })
      res.writeHead(201, { 'content-type': 'application/json', 'x-backend': 'yes' })
      res.end(JSON.stringify({ ok: true }))
    })
  })
  // A WebSocket handshake answered by hand, then an echo of whatever comes.
  backend.on('upgrade', (req, socket) => {
    upgraded.push(socket)
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nX-Path: ${req.url}\r\n\r\n`)
    socket.on('data', (d) => socket.write(d))
  })
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve))
  front = await startTlsFront({ root, backend: `http://127.0.0.1:${(backend.address() as AddressInfo).port}` })
  client = http2.connect(front.url, { ca: CA })
})

afterAll(async () => {
  client?.close()
  await front?.close()
  // The front's requests keep their connections to the backend alive (Node's default agent).
  backend.closeAllConnections()
  for (const socket of upgraded) socket.destroy()
  await new Promise<void>((resolve) => backend.close(() => resolve()))
  rmSync(root, { recursive: true, force: true })
  rmSync(join(tmpdir(), 'axiom-tls-front-secret.txt'), { force: true })
})

describe('the TLS front the benches serve the build with', () => {
  it('speaks HTTP/2 with a certificate valid for 127.0.0.1', async () => {
    const res = await ask('/')
    expect(res.status).toBe(200)
    expect(client.alpnProtocol).toBe('h2')
  })

  it('asks the page to be revalidated, and answers 304 when it has not changed', async () => {
    const res = await ask('/')
    expect(res.body.toString()).toBe(PAGE)
    expect(res.headers['cache-control']).toBe('no-cache')
    const again = await ask('/', { 'if-none-match': String(res.headers.etag) })
    expect(again.status).toBe(304)
    expect(again.body.length).toBe(0)
  })

  it('gzips a hashed build file for a year when the browser takes gzip', async () => {
    const res = await ask('/assets/app-1a2b3c.js', { 'accept-encoding': 'gzip, deflate, br' })
    expect(res.headers['content-encoding']).toBe('gzip')
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(res.headers['content-type']).toMatch(/javascript/)
    expect(gunzipSync(res.body).toString()).toBe(SCRIPT)
    expect(res.body.length).toBeLessThan(SCRIPT.length / 4)
    const plain = await ask('/assets/app-1a2b3c.js')
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body.toString()).toBe(SCRIPT)
  })

  it('answers a route of the app, and a path outside the build, with the page', async () => {
    expect((await ask('/referral/re-bonding?code=abc')).body.toString()).toBe(PAGE)
    const outside = await ask('/../axiom-tls-front-secret.txt')
    expect(outside.body.toString()).toBe(PAGE)
    const encoded = await ask('/%2e%2e/axiom-tls-front-secret.txt')
    expect(encoded.body.toString()).toBe(PAGE)
  })

  it('passes /api to the backend as it came: method, path and query, body; and its answer back', async () => {
    const res = await ask('/api/mint/create?x=1', { 'content-type': 'application/json', authorization: 'Bearer t' }, '{"amount":5}')
    expect(res.status).toBe(201)
    expect(res.headers['x-backend']).toBe('yes')
    expect(JSON.parse(res.body.toString())).toEqual({ ok: true })
    expect(seen.at(-1)).toEqual({ method: 'POST', url: '/api/mint/create?x=1', host: expect.stringMatching(/^127\.0\.0\.1:\d+$/), body: '{"amount":5}' })
  })

  it("sends nginx's security headers (deploy/security-headers.ts) on the page, the files and /api, HSTS included", async () => {
    for (const res of [await ask('/'), await ask('/assets/app-1a2b3c.js'), await ask('/api/mint/create', { 'content-type': 'application/json' }, '{}')]) {
      expect(res.headers['content-security-policy']).toBe(contentSecurityPolicy('local'))
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
      expect(res.headers['strict-transport-security']).toBe(HSTS)
    }
  })

  it('pipes a WebSocket upgrade (HTTP/1.1 over TLS) to the backend and back', async () => {
    const { port } = new URL(front.url)
    const socket = tls.connect({ host: '127.0.0.1', port: Number(port), ca: CA, ALPNProtocols: ['http/1.1'] })
    const received: string[] = []
    socket.on('data', (d) => received.push(d.toString()))
    await new Promise<void>((resolve) => socket.once('secureConnect', () => resolve()))
    socket.write('GET /api/ws?token=abc HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n')
    await expect.poll(() => received.join('')).toMatch(/^HTTP\/1\.1 101 [\s\S]*X-Path: \/api\/ws\?token=abc\r\n\r\n$/)
    socket.write('ping')
    await expect.poll(() => received.join('')).toMatch(/ping$/)
    socket.destroy()
  })

  it("tells Chromium to trust the certificate by its public key's SHA-256 (as openssl computes it)", () => {
    // openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64
    expect(trustTlsFrontFlag()).toBe('--ignore-certificate-errors-spki-list=kYmNEolN6dr5Jl0c0ylMMRdUrEfl5E6pAkye+H3mh4M=')
  })
})
