import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Effect, Fiber } from 'effect'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FetchHttpTransport } from '../../adapters/shared/fetch-http-transport.ts'
import { NetworkError } from '../../core/errors.ts'

interface Seen {
  readonly method: string
  readonly url: string
  readonly headers: IncomingMessage['headers']
  readonly body: string
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let text = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (text += chunk))
    req.on('end', () => resolve(text))
  })

let server: Server
let origin: string
/** Set by a test that wants the next /api/hang request held open. */
let onHang: ((req: IncomingMessage) => void) | null = null

const handle = async (req: IncomingMessage, res: ServerResponse) => {
  const url = new URL(req.url ?? '/', 'http://x')
  const body = await readBody(req)
  const json = (status: number, value: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' })
    res.end(JSON.stringify(value))
  }
  if (url.pathname === '/api/echo') {
    const seen: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body }
    return json(200, seen)
  }
  const status = /^\/api\/status\/(\d+)$/.exec(url.pathname)
  if (status) return json(Number(status[1]), { msg: `answered ${status[1]}` })
  if (url.pathname === '/api/text') {
    res.writeHead(502, { 'Content-Type': 'text/html' })
    return res.end('<html>Bad Gateway</html>')
  }
  if (url.pathname === '/api/empty') {
    res.writeHead(204)
    return res.end()
  }
  if (url.pathname === '/api/hang' && onHang) return onHang(req)
  json(404, { msg: 'no route' })
}

beforeAll(async () => {
  server = createServer((req, res) => void handle(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const echo = (transport: FetchHttpTransport, request: Parameters<FetchHttpTransport['send']>[0]) =>
  Effect.runPromise(transport.send(request)).then((res) => res.body as Seen)

describe('FetchHttpTransport', () => {
  it('sends the query without undefined values, and the bearer token', async () => {
    const seen = await echo(new FetchHttpTransport({ origin }), {
      method: 'GET',
      path: '/echo',
      query: { page: 1, limit: 300, from_ref_balance: true, sort_by: undefined, code: 'a b&c' },
      bearer: 'jwt-123',
    })
    expect(seen.method).toBe('GET')
    expect(seen.url).toBe('/api/echo?page=1&limit=300&from_ref_balance=true&code=a+b%26c')
    expect(seen.headers.authorization).toBe('Bearer jwt-123')
    expect(seen.headers['content-type']).toBeUndefined()
    expect(seen.body).toBe('')
  })

  it('posts a JSON body with the idempotency key, and no authorization when none is given', async () => {
    const seen = await echo(new FetchHttpTransport({ origin: `${origin}/` }), {
      method: 'POST',
      path: '/echo',
      body: { amount: 12.5, days: 30 },
      idempotencyKey: 'key-1',
    })
    expect(seen.method).toBe('POST')
    expect(seen.url).toBe('/api/echo')
    expect(seen.headers['content-type']).toBe('application/json')
    expect(seen.headers['idempotency-key']).toBe('key-1')
    expect(seen.headers.authorization).toBeUndefined()
    expect(JSON.parse(seen.body)).toEqual({ amount: 12.5, days: 30 })
  })

  it.each([400, 401, 403, 404, 413, 422, 500])('gives back a %i with its parsed body instead of failing', async (status) => {
    const res = await Effect.runPromise(new FetchHttpTransport({ origin }).send({ method: 'GET', path: `/status/${status}` }))
    expect(res).toEqual({ status, body: { msg: `answered ${status}` } })
  })

  it('reads a body that is not JSON, or no body at all, as null', async () => {
    const transport = new FetchHttpTransport({ origin })
    expect(await Effect.runPromise(transport.send({ method: 'GET', path: '/text' }))).toEqual({ status: 502, body: null })
    expect(await Effect.runPromise(transport.send({ method: 'POST', path: '/empty' }))).toEqual({ status: 204, body: null })
  })

  it('fails with NetworkError when nothing listens', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const error = await Effect.runPromise(
      Effect.flip(new FetchHttpTransport({ origin: `http://127.0.0.1:${port}` }).send({ method: 'GET', path: '/me' })),
    )
    expect(error).toBeInstanceOf(NetworkError)
    expect(error._tag).toBe('NetworkError')
  })

  it('aborts the request when the effect is interrupted', async () => {
    let closedOnServer!: Promise<void>
    const arrival = new Promise<void>((arrived) => {
      onHang = (req) => {
        closedOnServer = new Promise((closed) => req.socket.once('close', () => closed()))
        arrived()
      }
    })
    const fiber = Effect.runFork(new FetchHttpTransport({ origin }).send({ method: 'GET', path: '/hang' }))
    await arrival
    await Effect.runPromise(Fiber.interrupt(fiber))
    const outcome = await Promise.race([
      closedOnServer.then(() => 'socket closed'),
      new Promise((resolve) => setTimeout(() => resolve('still open'), 2_000)),
    ])
    onHang = null
    expect(outcome).toBe('socket closed')
  })

  it('uses the page origin and /api when no origin is given', async () => {
    const urls: string[] = []
    const fakeFetch: typeof fetch = async (input) => {
      urls.push(String(input))
      return new Response('{"ok":true}', { status: 200 })
    }
    const res = await Effect.runPromise(
      new FetchHttpTransport({ fetch: fakeFetch }).send({ method: 'GET', path: '/user/me' }),
    )
    expect(urls).toEqual(['/api/user/me'])
    expect(res.body).toEqual({ ok: true })
  })
})
