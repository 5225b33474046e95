import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openRaw, type RawConnection } from './raw-http.ts'
import { startTestServer, type Session, type TestServer } from './support.ts'

const MiB = 1024 * 1024
const LIMIT = 8 * MiB
const TOO_LARGE = { status: 413, json: { msg: 'File size is too large' } }

let t: TestServer
let s: Session
beforeAll(async () => {
  t = await startTestServer()
  s = await t.login(1)
})
afterAll(() => t.close())

const head = (lines: ReadonlyArray<string>) => `${lines.join('\r\n')}\r\n\r\n`

/** Sends `total` bytes of body in 64 KiB pieces, pausing `paceMs` between them (a phone's upload, not a burst). */
const sendBody = async (c: RawConnection, total: number, paceMs: number, chunked = false): Promise<number> => {
  const piece = Buffer.alloc(64 * 1024, 0x61)
  let sent = 0
  try {
    while (sent < total && !c.socket.destroyed) {
      const part = piece.subarray(0, Math.min(piece.length, total - sent))
      await c.write(chunked ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part)
      sent += part.length
      if (paceMs > 0) await sleep(paceMs)
    }
    if (chunked && !c.socket.destroyed) await c.write('0\r\n\r\n')
  } catch {
    // The server cut the connection.
  }
  return sent
}

const uploadHead = (length: number | 'chunked', extra: ReadonlyArray<string> = []) =>
  head([
    'POST /api/task/validate HTTP/1.1',
    'Host: 127.0.0.1',
    `Authorization: Bearer ${s.token}`,
    'Content-Type: application/json',
    length === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`,
    ...extra,
  ])

describe('an oversized body gets its 413, not a reset', () => {
  it('a body 3 MiB over the limit, sent at a phone’s pace: the client reads the 413 and its msg, and the connection still serves', async () => {
    const c = await openRaw(t.server.port)
    const total = LIMIT + 3 * MiB
    await c.write(uploadHead(total))
    const sent = await sendBody(c, total, 2)
    expect(sent).toBe(total)
    expect(await c.reply(10_000)).toMatchObject(TOO_LARGE)
    // Keep-alive: the rest of the body was read and discarded, and the next request is answered.
    await c.write(head(['GET /api/maintenance/ HTTP/1.1', 'Host: 127.0.0.1']))
    expect((await c.reply()).status).toBe(200)
    c.close()
  })

  it('a chunked body that grows past the limit: the client reads the 413', async () => {
    const c = await openRaw(t.server.port)
    await c.write(uploadHead('chunked'))
    await sendBody(c, LIMIT + 2 * MiB, 1, true)
    expect(await c.reply(10_000)).toMatchObject(TOO_LARGE)
    c.close()
  })

  it('with Expect: 100-continue the 413 comes instead of 100 Continue, before any of the body is sent', async () => {
    const c = await openRaw(t.server.port)
    await c.write(uploadHead(LIMIT + 3 * MiB, ['Expect: 100-continue']))
    for (let i = 0; i < 200 && c.peek() === ''; i++) await sleep(10)
    expect(c.peek()).toMatch(/^HTTP\/1\.1 413 /)
    expect(await c.reply(5000)).toMatchObject(TOO_LARGE)
    await c.closed
  })

  it('with Expect: 100-continue a body within the limit is welcome, and answered as usual', async () => {
    const c = await openRaw(t.server.port)
    const body = JSON.stringify({ task_id: 1 })
    await c.write(uploadHead(Buffer.byteLength(body), ['Expect: 100-continue']))
    for (let i = 0; i < 100 && !c.peek().startsWith('HTTP/1.1 100'); i++) await sleep(10)
    expect(c.peek()).toMatch(/^HTTP\/1\.1 100 Continue/)
    await c.write(body)
    const reply = await c.reply()
    expect(reply.status).not.toBe(413)
    expect(reply.json.msg ?? reply.json.task_id).toBeDefined()
    c.close()
  })

  it('an early answer (401) to a request with a large body arrives too', async () => {
    const c = await openRaw(t.server.port)
    const total = 3 * MiB
    await c.write(head(['POST /api/task/validate HTTP/1.1', 'Host: 127.0.0.1', 'Content-Type: application/json', `Content-Length: ${total}`]))
    await sendBody(c, total, 1)
    expect(await c.reply(10_000)).toMatchObject({ status: 401, json: { msg: 'Not authenticated' } })
    c.close()
  })
})

describe('the drain is bounded', () => {
  it('a client that keeps sending past twice the limit is cut off', async () => {
    const small = await startTestServer({ bodyLimitBytes: 256 * 1024 })
    try {
      const session = await small.login(2)
      const c = await openRaw(small.server.port)
      const total = 4 * MiB
      await c.write(
        head(['POST /api/task/validate HTTP/1.1', 'Host: 127.0.0.1', `Authorization: Bearer ${session.token}`, 'Content-Type: application/json', `Content-Length: ${total}`]),
      )
      const sent = await sendBody(c, total, 0)
      await c.closed
      expect(sent).toBeLessThan(total)
    } finally {
      await small.close()
    }
  })
})
