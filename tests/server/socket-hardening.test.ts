import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import type { Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { DEV_BOT_TOKEN } from '../../server/main.ts'
import { closeReason } from '../../server/sockets/close.ts'
import { spawnBackend } from '../support/backend-process.ts'
import { rawUpgrade } from './raw-http.ts'
import { call, closed, collect, openSocket, serversClosedAfterAll, signInitData, TEST_ENGINE, testDatabase } from './support.ts'

/**
 * The sockets met from outside, as a script or a foreign page would meet them: a raw TCP upgrade with
 * a forged Origin, `ws` clients sending what they like, and the backend in a process of its own
 * where an error inside a socket's handler would end it.
 */

const start = serversClosedAfterAll()
const dir = mkdtempSync(join(tmpdir(), 'axiom-sockets-'))
const children: ChildProcess[] = []
const clients: WebSocket[] = []
const raws: Socket[] = []
afterAll(() => {
  for (const ws of clients) ws.terminate()
  for (const s of raws) s.destroy()
  for (const p of children) p.kill('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

/** Unhandled rejections seen while a test runs (one would end a production process). */
const rejections: unknown[] = []
const onRejection = (reason: unknown) => rejections.push(reason)
beforeEach(() => {
  rejections.length = 0
  process.on('unhandledRejection', onRejection)
})
afterEach(() => {
  process.off('unhandledRejection', onRejection)
})


const track = (ws: WebSocket) => {
  clients.push(ws)
  ws.on('error', () => undefined)
  return ws
}

const register = async (url: string, telegramId: number) => {
  const res = await call(url, 'POST', '/auth/register', { body: { init_data: signInitData({ id: telegramId }, Math.floor(Date.now() / 1000)) } })
  expect(res.status).toBe(200)
  return res.body as { token: string; refresh: string }
}

/**
 * Writes a setting into the backend's database over a connection of its own, as an operator's SQL
 * (or a damaged row) would: the backend learns of it only when it reads it.
 */
const writeSettingOutside = async (db: string, key: string, value: string) => {
  if (TEST_ENGINE === 'sqlite') {
    const conn = new Database(db)
    try {
      conn.pragma('busy_timeout = 5000')
      conn.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value)
    } finally {
      conn.close()
    }
    return
  }
  const client = new pg.Client({ connectionString: db })
  await client.connect()
  try {
    await client.query('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [key, value])
  } finally {
    await client.end()
  }
}

/** A collective bonus that is not a number, long: reading it fails with an error whose text quotes it (well over 123 bytes). */
const DAMAGED_BONUS = `damaged-${'x'.repeat(300)}`

describe('an error inside the main socket ends neither the process nor leaks its text', () => {
  it('a backend process whose setting read fails with a long error closes the socket 1011 "Internal error" and goes on answering', async () => {
    const db = await testDatabase(join(dir, `crash-${Date.now()}.db`))
    const backend = await spawnBackend({ AXIOM_DB: db, BOT_TOKEN: DEV_BOT_TOKEN, AXIOM_RATE_LIMITS: 'off' })
    children.push(backend.proc)
    let exited: number | null | undefined
    backend.proc.once('exit', (code) => (exited = code))
    const { token } = await register(backend.url, 5101)
    await writeSettingOutside(db, 'collective_bonus', DAMAGED_BONUS)

    const ws = track(await openSocket(backend.url, '/api/ws/'))
    const done = closed(ws)
    ws.send(token)
    expect(await done).toEqual({ code: 1011, reason: 'Internal error' })
    // Long enough for an unhandled rejection to have ended the process.
    await new Promise((r) => setTimeout(r, 300))
    expect(exited).toBeUndefined()
    const health = await fetch(`${backend.url}/health`)
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }])
    // And the socket serves again once the setting is sound (PostgreSQL keeps a setting read for up to 5 s).
    await writeSettingOutside(db, 'collective_bonus', '1000')
    const deadline = Date.now() + 10_000
    for (;;) {
      const again = collect(track(await openSocket(backend.url, '/api/ws/')))
      const end = closed(again.ws)
      again.ws.send(token)
      const served = await Promise.race([again.next('global:collective_bonus', () => true, 10_000).then(() => true), end.then(() => false)])
      if (served) break
      expect(Date.now()).toBeLessThan(deadline)
      await new Promise((r) => setTimeout(r, 500))
    }
  })

  it('in process: no unhandled rejection, the fixed reason, and the error logged on the server only', async () => {
    const db = await testDatabase(join(dir, `inproc-${Date.now()}.db`))
    const t = await start({ dbPath: db })
    const logged: string[] = []
    const original = t.server.app.log.error.bind(t.server.app.log)
    t.server.app.log.error = ((obj: unknown, ...rest: unknown[]) => {
      const err = (obj as { err?: unknown })?.err
      logged.push(err instanceof Error ? err.message : String(obj))
      return (original as (...a: unknown[]) => void)(obj, ...rest)
    }) as typeof t.server.app.log.error
    const s = await t.login(5102)
    await writeSettingOutside(db, 'collective_bonus', DAMAGED_BONUS)
    const ws = track(await openSocket(t.url, '/api/ws/'))
    const done = closed(ws)
    ws.send(s.token)
    const { code, reason } = await done
    expect({ code, reason }).toEqual({ code: 1011, reason: 'Internal error' })
    expect(reason).not.toContain('damaged')
    await new Promise((r) => setTimeout(r, 100))
    expect(rejections).toEqual([])
    expect(logged.some((m) => m.includes('damaged-xxx'))).toBe(true)
    expect((await fetch(`${t.url}/health`)).status).toBe(200)
    await writeSettingOutside(db, 'collective_bonus', '1000')
  })

  it('refused tokens close with 4001 and a fixed reason', async () => {
    const t = await start()
    for (const [text, reason] of [
      ['not-a-token', 'Invalid token'],
      ['a.b.c', 'Invalid token'],
      [`Bearer ${'é'.repeat(1000)}`, 'Invalid token'],
    ] as const) {
      const ws = track(await openSocket(t.url, '/api/ws/'))
      const done = closed(ws)
      ws.send(text)
      expect(await done).toEqual({ code: 4001, reason })
    }
  })

  it('a close reason is cut to 123 bytes of UTF-8, never inside a character', () => {
    expect(closeReason('Invalid token')).toBe('Invalid token')
    const cut = closeReason('é'.repeat(100))
    expect(Buffer.byteLength(cut)).toBe(122)
    expect(cut).toBe('é'.repeat(61))
  })
})

/** An upgrade written by hand with the given extra header lines: its answer's status and body. */
const upgradeAnswer = async (port: number, path: string, headers: readonly string[]) => {
  const r = await rawUpgrade(port, path, headers, (socket) => raws.push(socket))
  if (r.status === 101) r.socket.destroy()
  return { status: r.status, body: r.body }
}

const FOREIGN = { status: 403, body: JSON.stringify({ msg: 'This origin may not open the sockets' }) }

describe('the sockets open only for the app’s origins', () => {
  it('dev (no AXIOM_APP_ORIGINS): this machine’s pages on any port, and clients without Origin; another site gets 403', async () => {
    const t = await start()
    for (const path of ['/api/ws/', '/api/ws/candles']) {
      expect(await upgradeAnswer(t.server.port, path, ['Origin: https://evil.example'])).toEqual(FOREIGN)
      expect(await upgradeAnswer(t.server.port, path, ['Origin: http://127.0.0.1.evil.example:5173'])).toEqual(FOREIGN)
      expect(await upgradeAnswer(t.server.port, path, ['Origin: null'])).toEqual(FOREIGN)
      expect(await upgradeAnswer(t.server.port, path, ['Origin: http://127.0.0.1:5173', 'Origin: https://evil.example'])).toEqual(FOREIGN)
      // `npm start`'s app, the Telegram host emulator, the e2e stack's preview on a random port.
      for (const origin of ['http://127.0.0.1:5173', 'http://localhost:8790', 'http://127.0.0.1:41234', 'http://[::1]:5173', 'https://localhost'])
        expect((await upgradeAnswer(t.server.port, path, [`Origin: ${origin}`])).status).toBe(101)
      // A Node client (the CLI, the bot, a test) sends none.
      expect((await upgradeAnswer(t.server.port, path, [])).status).toBe(101)
    }
  })

  it('with appOrigins set, only those: the local ones are refused too', async () => {
    const t = await start({ appOrigins: ['https://app.example.com'] })
    expect((await upgradeAnswer(t.server.port, '/api/ws/', ['Origin: https://app.example.com'])).status).toBe(101)
    expect((await upgradeAnswer(t.server.port, '/api/ws/candles', ['Origin: https://APP.example.com'])).status).toBe(101)
    expect(await upgradeAnswer(t.server.port, '/api/ws/', ['Origin: http://app.example.com'])).toEqual(FOREIGN)
    expect(await upgradeAnswer(t.server.port, '/api/ws/', ['Origin: http://127.0.0.1:5173'])).toEqual(FOREIGN)
    expect(await upgradeAnswer(t.server.port, '/api/ws/candles', ['Origin: https://app.example.com.evil.example'])).toEqual(FOREIGN)
    expect((await upgradeAnswer(t.server.port, '/api/ws/', [])).status).toBe(101)
  })

  it('a ws client with a foreign origin meets the 403 before the socket opens', async () => {
    const t = await start()
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/api/ws/`, { origin: 'https://evil.example' })
    ws.on('error', () => undefined)
    const status = await new Promise<number>((resolve, reject) => {
      ws.once('unexpected-response', (req, res) => {
        req.destroy()
        resolve(res.statusCode ?? 0)
      })
      ws.once('open', () => reject(new Error('opened from a foreign origin')))
    })
    expect(status).toBe(403)
  })
})

describe('what one socket may send', () => {
  it('a main-socket message over the size limit closes the socket (1009); a token-sized one does not', async () => {
    const t = await start()
    const ws = track(await openSocket(t.url, '/api/ws/'))
    const done = closed(ws)
    ws.send('x'.repeat(5 * 1024))
    expect((await done).code).toBe(1009)
    // The same socket with the default 64 KiB would have read it as a token: 4001.
    const s = await t.login(5201)
    const live = await t.socket(s)
    expect(live.ws.readyState).toBe(WebSocket.OPEN)
    live.close()
  })

  it('a candle-socket message over its size limit closes the socket (1009)', async () => {
    const t = await start()
    const ws = track(await openSocket(t.url, '/api/ws/candles'))
    const done = closed(ws)
    ws.send(JSON.stringify({ interval: '1h', pad: 'x'.repeat(2 * 1024) }))
    expect((await done).code).toBe(1009)
  })

  it('the limits are settings: a larger candle limit takes the same message', async () => {
    const t = await start({ socketMessages: { mainMaxBytes: 4096, candleMaxBytes: 8192, perSocket: { max: 20, windowS: 10 } } })
    const live = collect(track(await openSocket(t.url, '/api/ws/candles')))
    live.ws.send(JSON.stringify({ interval: '1h', pad: 'x'.repeat(2 * 1024) }))
    expect((await live.next('current_candle', (d) => d.interval === '1h')).interval).toBe('1h')
  })

  it('a flood of messages on the candle socket closes it with 1008 "Too many messages"; 20 in 10 s are served', async () => {
    const t = await start()
    const live = collect(track(await openSocket(t.url, '/api/ws/candles')))
    await live.next('current_candle')
    for (let i = 0; i < 20; i++) live.ws.send(i % 2 ? '1h' : '5m')
    for (let i = 0; i < 20; i++) await live.next('current_candle', (d) => d.interval === (i % 2 ? '1h' : '5m'))
    expect(live.ws.readyState).toBe(WebSocket.OPEN)
    const done = closed(live.ws)
    for (let i = 0; i < 50; i++) live.ws.send('1h')
    expect(await done).toEqual({ code: 1008, reason: 'Too many messages' })
  })

  it('a flood on a signed-in main socket closes it with 1008 "Too many messages"', async () => {
    const t = await start()
    const s = await t.login(5202)
    const live = await t.socket(s)
    const done = closed(live.ws)
    for (let i = 0; i < 30; i++) live.ws.send('ping')
    expect(await done).toEqual({ code: 1008, reason: 'Too many messages' })
  })

  it('a flood of ping frames counts too: 1008 "Too many messages"', async () => {
    const t = await start()
    const ws = track(await openSocket(t.url, '/api/ws/candles'))
    const done = closed(ws)
    for (let i = 0; i < 30; i++) ws.ping()
    expect(await done).toEqual({ code: 1008, reason: 'Too many messages' })
  })
})

describe('a revoked session’s sockets close at once', () => {
  it('presenting a spent refresh token revokes the family: its socket closes with 4001 "Session revoked"; another session of the user stays', async () => {
    const t = await start()
    const victim = await t.login(5301)
    const other = await t.login(5301)
    const victimSocket = await t.socket(victim)
    const otherSocket = await t.socket(other)
    const rotated = await t.call('POST', '/auth/refresh', { body: { refresh_token: victim.refresh } })
    expect(rotated.status).toBe(200)
    // Refreshing keeps the family, and the socket.
    await new Promise((r) => setTimeout(r, 100))
    expect(victimSocket.ws.readyState).toBe(WebSocket.OPEN)
    const done = closed(victimSocket.ws)
    expect((await t.call('POST', '/auth/refresh', { body: { refresh_token: victim.refresh } })).status).toBe(401)
    expect(await done).toEqual({ code: 4001, reason: 'Session revoked' })
    await new Promise((r) => setTimeout(r, 100))
    expect(otherSocket.ws.readyState).toBe(WebSocket.OPEN)
    otherSocket.close()
    // The revoked family's tokens open no socket either.
    const again = track(await openSocket(t.url, '/api/ws/'))
    const refused = closed(again)
    again.send(rotated.body.token)
    expect(await refused).toEqual({ code: 4001, reason: 'Session revoked' })
  })
})
