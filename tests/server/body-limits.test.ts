import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openRaw, rawRequest } from './raw-http.ts'
import { signInitData, startTestServer, type Session, type TestServer } from './support.ts'

/**
 * Each route's body limit, from the outside: requests written by hand on a raw socket. Every route
 * takes 16 KiB (JSON payloads of a few fields); the photo's route alone (POST /api/task/validate)
 * takes 8 MiB, and its photo is then held to 1 MiB decoded (the spec's 413 "File size is too large").
 */

const KiB = 1024
const BODY_TOO_LARGE = { status: 413, json: { msg: 'The body is too large (at most 16 KiB)' } }

let t: TestServer
let s: Session
beforeAll(async () => {
  t = await startTestServer()
  s = await t.login(1)
})
afterAll(() => t.close())

const request = (method: string, path: string, headers: ReadonlyArray<string>, body = '') =>
  [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...headers, `Content-Length: ${Buffer.byteLength(body)}`, '', body].join('\r\n')

/** A JSON object of `size` bytes: its fields are what the route reads, padded with a field it ignores. */
const jsonOf = (size: number, fields: Record<string, unknown>): string => {
  const bare = JSON.stringify({ ...fields, pad: '' })
  return JSON.stringify({ ...fields, pad: 'a'.repeat(size - bare.length) })
}

describe('the routes other than the photo’s take 16 KiB', () => {
  const initData = () => signInitData({ id: 77 }, t.clock.now)
  const routes: ReadonlyArray<{ name: string; path: string; auth: boolean; fields: () => Record<string, unknown> }> = [
    { name: 'register (no sign-in)', path: '/api/auth/register', auth: false, fields: () => ({ init_data: initData(), ref_code: null }) },
    { name: 'refresh (no sign-in)', path: '/api/auth/refresh', auth: false, fields: () => ({ refresh_token: s.refresh }) },
    { name: 'chat-member (no bearer)', path: '/api/telegram/chat-member', auth: false, fields: () => ({ init_data: initData(), chat: 'bot', status: 'member' }) },
    { name: 'sale-cancel (no bearer)', path: '/api/telegram/sale-cancel', auth: false, fields: () => ({ init_data: initData(), sale_id: 1 }) },
    { name: 'mint create', path: '/api/mint/create', auth: true, fields: () => ({ amount: 10, days: 30 }) },
    { name: 'withdraw create', path: '/api/withdraw/create', auth: true, fields: () => ({ token_amount: 1, address: 'x' }) },
  ]

  for (const r of routes) {
    it(`${r.name}: a 17 KiB body is 413 with a message saying the limit, and the connection closes`, async () => {
      const headers = ['Content-Type: application/json', ...(r.auth ? [`Authorization: Bearer ${s.token}`] : [])]
      const reply = await rawRequest(t.server.port, request('POST', r.path, headers, jsonOf(17 * KiB, r.fields())))
      expect(reply).toMatchObject(BODY_TOO_LARGE)
      expect(reply.headers.connection).toBe('close')
    })
  }

  it('a body just under 16 KiB still reaches the route (register answers it)', async () => {
    const reply = await rawRequest(t.server.port, request('POST', '/api/auth/register', ['Content-Type: application/json'], jsonOf(16 * KiB - 100, { init_data: initData(), ref_code: null })))
    expect(reply.status).toBe(200)
    expect(typeof reply.json.token).toBe('string')
  })

  it('a client still sending its 17 KiB reads the 413 (the answer is given on Content-Length, and the rest drained)', async () => {
    const c = await openRaw(t.server.port)
    const body = jsonOf(40 * KiB, { amount: 10, days: 30 })
    await c.write(
      [`POST /api/mint/create HTTP/1.1`, 'Host: 127.0.0.1', `Authorization: Bearer ${s.token}`, 'Content-Type: application/json', `Content-Length: ${body.length}`, '', ''].join('\r\n'),
    )
    try {
      for (let i = 0; i < body.length; i += 4 * KiB) {
        await c.write(body.slice(i, i + 4 * KiB))
        await sleep(5)
      }
    } catch {
      // The server half-closed after its answer: what it answered is read below.
    }
    expect(await c.reply(5000)).toMatchObject(BODY_TOO_LARGE)
    c.close()
  })

  it('with Expect: 100-continue, 17 KiB to a small route is 413 at once; to the photo’s route it is welcome', async () => {
    const small = await openRaw(t.server.port)
    await small.write(
      [`POST /api/mint/create HTTP/1.1`, 'Host: 127.0.0.1', `Authorization: Bearer ${s.token}`, 'Content-Type: application/json', `Content-Length: ${17 * KiB}`, 'Expect: 100-continue', '', ''].join('\r\n'),
    )
    expect(await small.reply(5000)).toMatchObject(BODY_TOO_LARGE)
    await small.closed

    const photo = await openRaw(t.server.port)
    await photo.write(
      [`POST /api/task/validate HTTP/1.1`, 'Host: 127.0.0.1', `Authorization: Bearer ${s.token}`, 'Content-Type: application/json', `Content-Length: ${17 * KiB}`, 'Expect: 100-continue', '', ''].join('\r\n'),
    )
    for (let i = 0; i < 100 && !photo.peek().startsWith('HTTP/1.1 100'); i++) await sleep(10)
    expect(photo.peek()).toMatch(/^HTTP\/1\.1 100 Continue/)
    photo.close()
  })
})

describe('the photo’s route takes a phone’s photo', () => {
  const validate = async (who: Session, photoBytes: number) => {
    const photo = `data:image/jpeg;base64,${Buffer.alloc(photoBytes, 7).toString('base64')}`
    const body = JSON.stringify({ task_id: 3, photo })
    return rawRequest(t.server.port, request('POST', '/api/task/validate', ['Content-Type: application/json', `Authorization: Bearer ${who.token}`], body), 10_000)
  }

  it('a 900 KiB photo (1.2 MiB of JSON) is validated', async () => {
    const who = await t.login(2)
    expect((await who.call('POST', '/task/start', { body: { task_id: 3 } })).status).toBe(200)
    const reply = await validate(who, 900 * KiB)
    expect([reply.status, reply.json.status]).toEqual([200, 'VALIDATED'])
  })

  it('a photo over 1 MiB decoded is the spec’s 413 "File size is too large"', async () => {
    const who = await t.login(3)
    await who.call('POST', '/task/start', { body: { task_id: 3 } })
    expect(await validate(who, 1024 * KiB + 1)).toMatchObject({ status: 413, json: { msg: 'File size is too large' } })
  })

  it('a body over 8 MiB is 413 "File size is too large" (the app shows §8’s text for it)', async () => {
    const reply = await rawRequest(
      t.server.port,
      [`POST /api/task/validate HTTP/1.1`, 'Host: 127.0.0.1', `Authorization: Bearer ${s.token}`, 'Content-Type: application/json', `Content-Length: ${8 * 1024 * KiB + 1}`, '', ''].join('\r\n'),
    )
    expect(reply).toMatchObject({ status: 413, json: { msg: 'File size is too large' } })
  })
})

describe('HEAD runs no handler', () => {
  /** The status of a HEAD written by hand (its answer is a head alone, whatever Content-Length it names). */
  const headStatus = async (path: string, headers: ReadonlyArray<string> = []): Promise<number> => {
    const c = await openRaw(t.server.port)
    try {
      await c.write([`HEAD ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...headers, '', ''].join('\r\n'))
      for (let i = 0; i < 300 && !c.peek().includes('\r\n\r\n'); i++) await sleep(10)
      return Number(/^HTTP\/1\.1 (\d{3}) /.exec(c.peek())?.[1] ?? 0)
    } finally {
      c.close()
    }
  }

  it('a HEAD of the activation-status GET does not activate the link: still unused, the balance unchanged', async () => {
    const creator = await t.login(10)
    const activator = await t.login(11)
    const link = await creator.call('POST', '/farming/create', {
      body: { amount: 2, days: 10, count_activations: 1, is_multilink: false, is_for_me: false },
    })
    expect(link.status).toBe(200)
    const code = link.body.activation_code as string
    const before = (await activator.call('GET', '/mint/')).body.total

    expect(await headStatus(`/api/farming/activation-status?activation_code=${code}`, [`Authorization: Bearer ${activator.token}`])).toBe(404)

    const after = await creator.call('GET', '/farming/')
    expect(after.body.items.find((l: { activation_code: string }) => l.activation_code === code)).toMatchObject({ used_activations: 0, status: 'active' })
    expect((await activator.call('GET', '/mint/')).body.total).toBe(before)
    // The GET does activate it (the link works).
    expect((await activator.call('GET', '/farming/activation-status', { query: { activation_code: code } })).body.status).toBe('ACTIVE')
  })

  it('/health and /ready answer HEAD with 200', async () => {
    expect([await headStatus('/health'), await headStatus('/ready')]).toEqual([200, 200])
  })
})
