import { createHash, randomBytes } from 'node:crypto'
import { Schema } from 'effect'
import fc from 'fast-check'
import pg from 'pg'
import { afterAll, expect, inject } from 'vitest'
import WebSocket from 'ws'
import { DEV_BOT_TOKEN, startServer, type RunningServer, type StartOptions } from '../../server/main.ts'
import { signInitDataFor } from '../support/init-data.ts'
import { RELAXED_RATE_LIMITS } from '../support/relaxed-limits.ts'

// Fixed seed: the generated cases are the same on every run (set FC_SEED to explore others).
fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20_260_101) })

/** A fixed start time, so prices, ages and rewards are the same on every run. */
export const T0 = 1_780_000_000

export interface TestClock {
  now: number
  advance(seconds: number): void
}

export interface Reply<T = any> {
  readonly status: number
  readonly body: T
  readonly headers: Headers
}

export interface CallOptions {
  readonly token?: string
  readonly body?: unknown
  readonly rawBody?: string
  readonly contentType?: string
  readonly query?: Record<string, string | number | boolean>
  readonly headers?: Record<string, string>
}

export const call = async (base: string, method: string, path: string, o: CallOptions = {}): Promise<Reply> => {
  const url = new URL(`${base}/api${path}`)
  for (const [k, v] of Object.entries(o.query ?? {})) url.searchParams.set(k, String(v))
  const headers: Record<string, string> = { ...(o.headers ?? {}) }
  if (o.token) headers.authorization = `Bearer ${o.token}`
  let body: string | undefined
  if (o.rawBody !== undefined) body = o.rawBody
  else if (o.body !== undefined) body = JSON.stringify(o.body)
  if (body !== undefined) headers['content-type'] = o.contentType ?? 'application/json'
  const res = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) })
  const text = await res.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {}
  return { status: res.status, body: parsed, headers: res.headers }
}

export interface TgUser {
  readonly id: number
  readonly first_name?: string
}

/** initData signed like Telegram signs it (by hand, tests/support/init-data.ts), for `user`, at `authDate` (seconds), with the dev bot token. */
export const signInitData = (user: TgUser, authDate: number, botToken = DEV_BOT_TOKEN): string =>
  signInitDataFor({ first_name: `User ${user.id}`, ...user }, authDate, botToken)

export interface Session {
  readonly token: string
  readonly refresh: string
  readonly telegramId: number
  call(method: string, path: string, o?: CallOptions): Promise<Reply>
}

export interface TestServer {
  readonly server: RunningServer
  readonly url: string
  readonly clock: TestClock
  call(method: string, path: string, o?: CallOptions): Promise<Reply>
  /** Registers (or logs in) a Telegram user and returns a session that sends its bearer token. */
  login(telegramId: number, refCode?: string | null): Promise<Session>
  /** A main socket authenticated as `session`, with every envelope it receives collected. */
  socket(session: Session): Promise<LiveSocket>
  close(): Promise<void>
}

export interface LiveSocket {
  readonly ws: WebSocket
  readonly events: Array<{ event: string; data: any }>
  next(event: string, match?: (data: any) => boolean, timeoutMs?: number): Promise<any>
  close(): void
}

export const collect = (ws: WebSocket): LiveSocket => {
  const events: Array<{ event: string; data: any }> = []
  const waiters: Array<{ event: string; match: (d: any) => boolean; resolve: (d: any) => void; seen: number }> = []
  ws.on('message', (raw) => {
    const e = JSON.parse(raw.toString()) as { event: string; data: any }
    events.push(e)
    for (const w of [...waiters])
      if (w.event === e.event && w.match(e.data)) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve(e.data)
      }
  })
  return {
    ws,
    events,
    next: (event, match = () => true, timeoutMs = 3000) =>
      new Promise((resolve, reject) => {
        const found = events.find((e) => e.event === event && match(e.data))
        if (found) {
          events.splice(events.indexOf(found), 1)
          return resolve(found.data)
        }
        const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs)
        waiters.push({
          event,
          match,
          seen: events.length,
          resolve: (d) => {
            clearTimeout(timer)
            events.splice(events.findIndex((e) => e.data === d), 1)
            resolve(d)
          },
        })
      }),
    close: () => ws.close(),
  }
}

/** The socket's close code and reason, or a failure if it stays open `ms`. */
export const closed = (ws: WebSocket, ms = 5_000): Promise<{ code: number; reason: string }> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still open after ${ms} ms`)), ms)
    ws.once('close', (code, reason) => {
      clearTimeout(timer)
      resolve({ code, reason: reason.toString() })
    })
  })

export const openSocket = (url: string, path: string): Promise<WebSocket> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(url.replace('http', 'ws') + path)
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
  })

/**
 * The engine the backend's tests run on: SQLite, or PostgreSQL when the test project sets
 * AXIOM_TEST_ENGINE=postgres (vitest.config.ts runs tests/server on both).
 */
export const TEST_ENGINE: 'sqlite' | 'postgres' = process.env.AXIOM_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite'

/**
 * The AXIOM_DB a test server opens for `dbPath` on the test engine. On SQLite, `dbPath` itself. On
 * PostgreSQL, a schema of its own in the run's database (tests/support/postgres-global-setup.ts):
 * a fresh one for ':memory:', the same one every time for a file path (so a restart finds its data).
 */
export const testDatabase = async (dbPath = ':memory:'): Promise<string> => {
  if (TEST_ENGINE === 'sqlite' || /^postgres(ql)?:/.test(dbPath)) return dbPath
  const schema =
    dbPath === ':memory:' ? `t_${randomBytes(8).toString('hex')}` : `f_${createHash('sha256').update(dbPath).digest('hex').slice(0, 20)}`
  const base = inject('postgresUrl')
  const client = new pg.Client({ connectionString: base })
  await client.connect()
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
  } finally {
    await client.end()
  }
  const url = new URL(base)
  url.searchParams.set('options', `-c search_path=${schema}`)
  return url.toString()
}

/**
 * A server on a random port with an in-memory database (a schema of its own on PostgreSQL) and a clock
 * the test moves. Its request limits are relaxed (tests/support/relaxed-limits.ts) unless
 * `options.rateLimits` says otherwise.
 */
export const startTestServer = async (options: StartOptions = {}): Promise<TestServer> => {
  const clock: TestClock = {
    now: T0,
    advance(seconds) {
      this.now += seconds
    },
  }
  const dbPath = await testDatabase(options.dbPath ?? ':memory:')
  const server = await startServer({ port: 0, priceTickMs: 50, now: () => clock.now, rateLimits: RELAXED_RATE_LIMITS, ...options, dbPath })
  const url = server.url
  const login = async (telegramId: number, refCode: string | null = null): Promise<Session> => {
    const res = await call(url, 'POST', '/auth/register', {
      body: { init_data: signInitData({ id: telegramId }, clock.now), ref_code: refCode },
    })
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`)
    const { token, refresh } = res.body as { token: string; refresh: string }
    return { token, refresh, telegramId, call: (m, p, o = {}) => call(url, m, p, { token, ...o }) }
  }
  return {
    server,
    url,
    clock,
    call: (m, p, o) => call(url, m, p, o),
    login,
    socket: async (session) => {
      const ws = await openSocket(url, '/api/ws/')
      const live = collect(ws)
      ws.send(session.token)
      await live.next('user:balance')
      return live
    },
    close: () => server.close(),
  }
}

/** Test servers started through the returned function are closed after the file's tests. */
export const serversClosedAfterAll = () => {
  const servers: TestServer[] = []
  afterAll(() => Promise.all(servers.map((t) => t.close())))
  return async (options: StartOptions = {}): Promise<TestServer> => {
    const t = await startTestServer(options)
    servers.push(t)
    return t
  }
}

/** "12.5" as nano-units, read by hand (no float). */
export const nano = (s: string): bigint => {
  const [whole, frac = ''] = s.split('.')
  return BigInt(whole!) * 1_000_000_000n + BigInt(frac.padEnd(9, '0'))
}

/** A bond bought through the API and paid as the chain watcher pays it. */
export const paidBond = async (t: TestServer, who: Session, amount: string, days = 30): Promise<number> => {
  const res = await who.call('POST', '/mint/create', { body: { amount, days } })
  expect(res.status).toBe(200)
  const id = res.body.mint.id as number
  await t.server.markMintPaid(id)
  return id
}

/** Decodes a response body with a core schema, throwing with the issue if it does not fit. */
export const decode = <S extends Schema.Top>(schema: S, body: unknown): S['Type'] =>
  Schema.decodeUnknownSync(schema as unknown as Schema.Codec<S['Type'], unknown>)(body)

/** A valid friendly TON address (bounceable, workchain 0): a user's wallet, not the dev treasury (a sale to that is refused). */
export const SOME_ADDRESS = 'EQA_bB0umot8bV5POiscDZ6PemtcTT4vGgucjX5vWks8LYOF'
