import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openRaw, type RawConnection } from './raw-http.ts'
import { startTestServer, type Session, type TestServer } from './support.ts'

const MiB = 1024 * 1024
/** The photo route's body limit (POST /api/task/validate); every other route takes 16 KiB. */
const LIMIT = 8 * MiB
const TOO_LARGE = { status: 413, json: { msg: 'File size is too large' } }
/** What a route other than the photo's answers a body over its 16 KiB. */
const BODY_TOO_LARGE = { status: 413, json: { msg: 'The body is too large (at most 16 KiB)' } }

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
  it('a body 3 MiB over the limit, sent at a phone’s pace: the client reads the 413 and its msg, then the server closes without a reset', async () => {
    const c = await openRaw(t.server.port)
    const errors: string[] = []
    c.socket.on('error', (e: NodeJS.ErrnoException) => errors.push(e.code ?? e.message))
    const total = LIMIT + 3 * MiB
    await c.write(uploadHead(total))
    const sending = sendBody(c, total, 2)
    const reply = await c.reply(10_000)
    expect(reply).toMatchObject(TOO_LARGE)
    // The answer says the connection ends, and the server half-closes it (FIN) rather than resetting it.
    expect(reply.headers.connection).toBe('close')
    await sending
    await c.closed
    expect(errors.filter((e) => e === 'ECONNRESET')).toEqual([])
  })

  it('the next request on a connection whose oversized body was refused goes on a new connection', async () => {
    const c = await openRaw(t.server.port)
    await c.write(uploadHead(LIMIT + MiB))
    expect(await c.reply(10_000)).toMatchObject(TOO_LARGE)
    await c.closed
    const next = await openRaw(t.server.port)
    await next.write(head(['GET /api/maintenance/ HTTP/1.1', 'Host: 127.0.0.1']))
    expect((await next.reply()).status).toBe(200)
    next.close()
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
  it('a client that keeps sending long after the 413 (over 4× the limit) is cut off', async () => {
    // The linger reads at most 4× the photo's limit: 1 MiB here.
    const small = await startTestServer({ photoBodyLimitBytes: 256 * 1024 })
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

describe('oversized bodies sent whole by a raw client, as an outside client would', () => {
  /**
   * One hand-written request per route (§7), its body `size` bytes (over the photo's limit, so over
   * every route's), sent as fast as the socket takes it; and the 413 its route answers.
   */
  const oversized = (i: number, size: number): { head: string; pieces: () => Generator<Buffer>; answer: typeof TOO_LARGE } => {
    const fill = (n: number) => Buffer.alloc(n, 0x61)
    const piecesOf = function* (total: number, wrap: (b: Buffer) => Buffer = (b) => b): Generator<Buffer> {
      for (let sent = 0; sent < total; sent += 256 * 1024) yield wrap(fill(Math.min(256 * 1024, total - sent)))
    }
    const auth = `Authorization: Bearer ${s.token}`
    switch (i % 4) {
      case 0:
        return {
          head: head(['POST /api/mint/create HTTP/1.1', 'Host: 127.0.0.1', auth, 'Content-Type: application/json', `Content-Length: ${size}`]),
          pieces: () => piecesOf(size),
          answer: BODY_TOO_LARGE,
        }
      case 1: {
        // A photo as multipart form data, chunked (a phone's upload of unknown length).
        const boundary = '----axiomboundary7MA4YWxkTrZu0gW'
        const open = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`)
        const chunk = (b: Buffer) => Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')])
        return {
          head: head(['POST /api/task/validate HTTP/1.1', 'Host: 127.0.0.1', auth, `Content-Type: multipart/form-data; boundary=${boundary}`, 'Transfer-Encoding: chunked']),
          pieces: function* () {
            yield chunk(open)
            yield* piecesOf(size - open.length, chunk)
            yield Buffer.from('0\r\n\r\n')
          },
          answer: TOO_LARGE,
        }
      }
      case 2:
        return {
          head: head(['POST /api/auth/register HTTP/1.1', 'Host: 127.0.0.1', 'Content-Type: application/json', `Content-Length: ${size}`]),
          pieces: () => piecesOf(size),
          answer: BODY_TOO_LARGE,
        }
      default:
        return {
          head: head(['POST /api/user/share-message HTTP/1.1', 'Host: 127.0.0.1', auth, 'Content-Type: application/json', `Content-Length: ${size}`]),
          pieces: () => piecesOf(size),
          answer: BODY_TOO_LARGE,
        }
    }
  }

  it('30 of 30 read the 413 and its msg, none a reset', async () => {
    const outcomes: string[] = []
    const expected: string[] = []
    const one = async (i: number) => {
      const size = LIMIT + 1 + i * 600 * 1024
      const { head: requestHead, pieces, answer } = oversized(i, size)
      expected.push(`413 close ${JSON.stringify(answer.json)}`)
      const c = await openRaw(t.server.port)
      try {
        // Like a client that sends the whole request before it reads (a socket's sendall, then recv):
        // the answer waits in the kernel meanwhile, where a reset would discard it.
        c.socket.pause()
        await c.write(requestHead)
        try {
          for (const piece of pieces()) {
            if (c.socket.destroyed || c.socket.writableEnded) break
            await c.write(piece)
          }
        } catch {
          // The server stopped reading; what it answered is read below.
        }
        c.socket.resume()
        const reply = await c.reply(10_000).catch((e: Error) => e.message)
        outcomes.push(typeof reply === 'string' ? `#${i}: ${reply.slice(0, 80)}` : `${reply.status} ${reply.headers.connection} ${JSON.stringify(reply.json)}`)
      } finally {
        c.close()
      }
    }
    // Three at a time, as a few users uploading at once.
    for (let i = 0; i < 30; i += 3) await Promise.all([i, i + 1, i + 2].map(one))
    expect(outcomes.sort()).toEqual(expected.sort())
    expect(outcomes.filter((o) => o.startsWith('413 close')).length).toBe(30)
  }, 120_000)
})
