import { describe, expect, it } from 'vitest'
import { type EarlyAnswers, meRequest, startEarlyRequests } from '../../adapters/browser/early-requests.ts'
import { type LaunchParams, launchParamsOf, parseQueryString } from '../../adapters/browser/launch-params.ts'
import { apiBase } from '../../adapters/shared/fetch-answer.ts'
import { FetchHttpTransport, type PrefetchedAnswers } from '../../adapters/shared/fetch-http-transport.ts'
import { composeApp } from '../../composition-root.ts'
import { FakeChainReader } from '../core/fakes/fake-chain-reader.ts'
import { FakePlatform, launchData } from '../core/fakes/fake-platform.ts'
import { FakeSocketFactory } from '../core/fakes/fake-socket-factory.ts'
import { FixedClock } from '../core/fakes/fixed-clock.ts'
import { MemoryKeyValueStore, MemorySessionStore } from '../core/fakes/memory-stores.ts'
import { aUser } from '../core/fakes/records.ts'
import { ScriptedWallet } from '../core/fakes/scripted-wallet.ts'
import { signInitDataFor } from '../support/init-data.ts'

const BOT = '123456:TEST-early'
const USER = 42
const initData = signInitDataFor({ id: USER, first_name: 'Ann' }, 1_763_900_000, BOT)
const telegram: LaunchParams = launchParamsOf(parseQueryString(`tgWebAppData=${encodeURIComponent(initData)}&tgWebAppVersion=8.0&tgWebAppPlatform=ios`))
const outside: LaunchParams = launchParamsOf({})

interface Seen {
  readonly call: string
  readonly auth: string | null
}
type Reply = { status: number; body?: unknown } | Promise<{ status: number; body?: unknown }>

/**
 * A backend behind `fetch`, answering from a table by `METHOD /path` (the API base stripped); a
 * reply may be held (a promise). Every request is recorded, in the order it was sent.
 */
const backend = (table: Record<string, (auth: string | null) => Reply>) => {
  const seen: Seen[] = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://app.local')
    const call = `${init?.method ?? 'GET'} ${url.pathname.replace(/^\/api/, '')}`
    const auth = new Headers(init?.headers).get('authorization')
    seen.push({ call, auth })
    const reply = await (table[call]?.(auth) ?? { status: 404, body: { msg: 'Not Found' } })
    return new Response(reply.body === undefined ? '' : JSON.stringify(reply.body), { status: reply.status })
  }) as typeof globalThis.fetch
  /** The sign-in's requests (the lists that follow it left out). */
  const signIn = () => seen.filter((s) => /^(GET \/maintenance\/|GET \/user\/me|POST \/auth\/)/.test(s.call))
  return { fetch, seen, signIn, calls: (call: string) => seen.filter((s) => s.call === call) }
}

const maintenanceOff = () => ({ status: 200, body: { detail: 'Maintenance mode is disabled' } })
const maintenanceOn = () => ({ status: 200, body: { detail: 'Maintenance mode is enabled' } })
const underMaintenance = () => ({ status: 503, body: { detail: 'We are under maintenance' } })

/** A held answer the test releases. */
const held = () => {
  let release: (reply: { status: number; body?: unknown }) => void = () => {}
  const reply = new Promise<{ status: number; body?: unknown }>((resolve) => (release = resolve))
  return { reply, release: (r: { status: number; body?: unknown }) => release(r) }
}

/** The entry's early requests, then the app composed over a transport that consults them, as in the browser. */
const boot = async (
  server: ReturnType<typeof backend>,
  o: {
    cookie?: string | null
    refresh?: string
    storedUser?: string | null
    launch?: LaunchParams
    later?: (run: () => void) => void
    /** What the transport is handed in place of the early answers themselves (to watch them). */
    handOver?: (answers: EarlyAnswers) => PrefetchedAnswers
  } = {},
) => {
  const launch = o.launch ?? telegram
  const session = new MemorySessionStore({
    ...(o.cookie ? { auth_token: o.cookie } : {}),
    ...(o.refresh ? { refresh_token: o.refresh } : {}),
  })
  const storage = new MemoryKeyValueStore()
  if (o.storedUser) storage.set('user', o.storedUser)
  const answers = startEarlyRequests({
    fetch: server.fetch,
    base: apiBase(''),
    launch,
    authToken: () => session.get('auth_token'),
    storedUserId: () => storage.get('user'),
    ...(o.later ? { later: o.later } : {}),
  })
  const platform = new FakePlatform(launch.initData ? launchData({ initData: launch.initData, userId: String(USER) }) : null)
  const app = await composeApp(
    {
      http: new FetchHttpTransport({ fetch: server.fetch, prefetched: o.handOver ? o.handOver(answers) : answers }),
      sockets: new FakeSocketFactory(),
      session,
      storage,
      clock: new FixedClock(),
      platform,
      wallet: new ScriptedWallet(),
      chain: new FakeChainReader(),
    },
    { botUsername: 'axiom_bot', communityUrl: 'https://t.me/axiom' },
  )
  return { app, answers, session, platform }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

/** A backend with everything a returning user's dashboard asks for first: no bonds, a price of 0.0125. */
const returningUsersBackend = () =>
  backend({
    'GET /maintenance/': maintenanceOff,
    'GET /user/me': () => ({ status: 200, body: aUser() }),
    'GET /mint/': () => ({ status: 200, body: { items: [], total: 0, page: 1, size: 300, pages: 0 } }),
    'GET /staking/': () => ({ status: 200, body: { items: [], total: 0, page: 1, size: 300, pages: 0 } }),
    'GET /mint/all-plans': () => ({ status: 200, body: [] }),
    'GET /price/current-price': () => ({ status: 200, body: { price: 0.0125, price_change_24h: 1.5, price_change_30d: -2 } }),
  })

describe('the requests the entry starts with the page', () => {
  it('a returning user: the maintenance check (no authorisation), then /user/me, the bond lists and the price with the cookie token; never a POST', () => {
    const server = backend({})
    startEarlyRequests({ fetch: server.fetch, base: '/api', launch: telegram, authToken: () => 'token-1', storedUserId: () => String(USER) })
    expect(server.seen).toEqual([
      { call: 'GET /maintenance/', auth: null },
      { call: 'GET /user/me', auth: 'Bearer token-1' },
      { call: 'GET /mint/', auth: 'Bearer token-1' },
      { call: 'GET /staking/', auth: 'Bearer token-1' },
      { call: 'GET /mint/all-plans', auth: 'Bearer token-1' },
      { call: 'GET /price/current-price', auth: 'Bearer token-1' },
    ])
  })

  it('the lists are asked for as the core asks: the first page of 300, written in the URL', async () => {
    const urls: string[] = []
    const fetch = (async (input: RequestInfo | URL) => {
      urls.push(String(input))
      return new Response('{}', { status: 200 })
    }) as typeof globalThis.fetch
    startEarlyRequests({ fetch, base: '/api', launch: telegram, authToken: () => 'token-1', storedUserId: () => null })
    expect(urls).toEqual(['/api/maintenance/', '/api/user/me', '/api/mint/?page=1&limit=300', '/api/staking/?page=1&limit=300', '/api/mint/all-plans', '/api/price/current-price'])
  })

  it('only the maintenance check for a first visit (no cookie), outside Telegram, or when another Telegram user launches', () => {
    for (const o of [
      { authToken: () => null, storedUserId: () => null, launch: telegram },
      { authToken: () => 'token-1', storedUserId: () => null, launch: outside },
      { authToken: () => 'token-1', storedUserId: () => '7', launch: telegram },
    ]) {
      const server = backend({})
      startEarlyRequests({ fetch: server.fetch, base: '/api', ...o })
      expect(server.seen.map((s) => s.call)).toEqual(['GET /maintenance/'])
    }
  })
})

describe('the requests after the maintenance check, each in a task of its own (`later`)', () => {
  it('only the maintenance check leaves in the entry’s task; each other request leaves when its own task runs, in order', async () => {
    const server = backend({})
    const tasks: Array<() => void> = []
    const read: string[] = []
    const authToken = () => (read.push('cookie'), 'token-1')
    const storedUserId = () => (read.push('stored user'), String(USER))
    startEarlyRequests({ fetch: server.fetch, base: '/api', launch: telegram, authToken, storedUserId, later: (send) => void tasks.push(send) })
    expect(server.seen.map((s) => s.call)).toEqual(['GET /maintenance/'])
    // The cookie and the stored user are read in the first task after the entry's, not in it.
    expect(read).toEqual([])
    expect(tasks).toHaveLength(1)
    tasks.shift()!()
    expect(read).toEqual(['cookie', 'stored user'])
    expect(server.seen.map((s) => s.call)).toEqual(['GET /maintenance/'])
    expect(tasks).toHaveLength(5)
    const left: string[][] = []
    for (const task of tasks) {
      task()
      await settle()
      left.push(server.seen.slice(1).map((s) => s.call))
    }
    expect(left).toEqual([
      ['GET /user/me'],
      ['GET /user/me', 'GET /mint/'],
      ['GET /user/me', 'GET /mint/', 'GET /staking/'],
      ['GET /user/me', 'GET /mint/', 'GET /staking/', 'GET /mint/all-plans'],
      ['GET /user/me', 'GET /mint/', 'GET /staking/', 'GET /mint/all-plans', 'GET /price/current-price'],
    ])
    expect(server.seen.slice(1).every((s) => s.auth === 'Bearer token-1')).toBe(true)
  })

  it('the core asking for /user/me after the requests are registered, before it has left, is handed its answer: it is sent once', async () => {
    const server = backend({ 'GET /user/me': () => ({ status: 200, body: aUser({ balance_token: 77 }) }) })
    const tasks: Array<() => void> = []
    const answers = startEarlyRequests({ fetch: server.fetch, base: '/api', launch: telegram, authToken: () => 'token-1', storedUserId: () => null, later: (send) => void tasks.push(send) })
    tasks.shift()!()
    const me = answers.take(meRequest('token-1'))
    expect(me).not.toBeNull()
    expect(server.calls('GET /user/me')).toHaveLength(0)
    tasks.splice(0).forEach((task) => task())
    // The answer is in; it reaches the core in a task of its own, the one queued after it came.
    await settle()
    let handed = false
    void me!.then(() => (handed = true))
    await settle()
    expect(handed).toBe(false)
    tasks.splice(0).forEach((task) => task())
    await settle()
    expect(handed).toBe(true)
    expect((await me)?.status).toBe(200)
    expect(server.calls('GET /user/me')).toHaveLength(1)
  })

  it('the core asking for /user/me before the requests are registered sends its own, and the early one never leaves', async () => {
    const server = backend({ 'GET /user/me': () => ({ status: 200, body: aUser() }) })
    const tasks: Array<() => void> = []
    const answers = startEarlyRequests({ fetch: server.fetch, base: '/api', launch: telegram, authToken: () => 'token-1', storedUserId: () => null, later: (send) => void tasks.push(send) })
    expect(answers.take(meRequest('token-1'))).toBeNull()
    while (tasks.length > 0) tasks.shift()!()
    await settle()
    expect(server.calls('GET /user/me')).toHaveLength(0)
    expect(server.calls('GET /mint/')).toHaveLength(1)
    expect(answers.waiting).not.toContain('/user/me')
  })

  it("a returning user's start takes each early answer in a task of its own: no task handles two", async () => {
    const server = returningUsersBackend()
    // The tasks are run one at a time, by hand; every answer is in before the core asks for it.
    const tasks: Array<() => void> = []
    const later = (run: () => void) => void tasks.push(run)
    const handed: string[] = []
    const watch = (answers: EarlyAnswers): PrefetchedAnswers => ({
      take: (request) => answers.take(request)?.then((res) => (handed.push(request.path), res)) ?? null,
    })
    const { app } = await boot(server, { cookie: 'token-1', storedUser: String(USER), later, handOver: watch })
    while (tasks.length > 0) tasks.shift()!()
    await settle()
    const started = app.start('')
    const perTask: number[] = []
    for (let i = 0; i < 50 && handed.length < 6; i++) {
      await settle()
      const before = handed.length
      tasks.shift()?.()
      await settle()
      perTask.push(handed.length - before)
    }
    expect([...handed].sort()).toEqual(['/maintenance/', '/mint/', '/mint/all-plans', '/price/current-price', '/staking/', '/user/me'])
    expect(Math.max(...perTask)).toBe(1)
    await started
    app.stop()
  })
})

describe('the core is handed the early answers', () => {
  it('a returning user signs in on the two early answers alone: no second maintenance check, no second /user/me', async () => {
    const server = backend({ 'GET /maintenance/': maintenanceOff, 'GET /user/me': () => ({ status: 200, body: aUser({ balance_token: 1234.5 }) }) })
    const { app, answers } = await boot(server, { cookie: 'token-1', storedUser: String(USER) })
    await app.start('')
    expect(app.phase).toBe('ready')
    expect(app.s.session.user?.balance_token).toBe(1234.5)
    expect(server.calls('GET /maintenance/')).toHaveLength(1)
    expect(server.calls('GET /user/me')).toHaveLength(1)
    expect(answers.waiting).toEqual([])
    app.stop()
  })

  it("the core takes the early bond lists and price: each is asked for once, and the dashboard's figures come from those answers", async () => {
    const server = returningUsersBackend()
    const { app, answers } = await boot(server, { cookie: 'token-1', storedUser: String(USER) })
    await app.start('')
    expect(app.s.bonds.listed).toBe(true)
    expect(app.s.market.price?.price).toBe(0.0125)
    for (const call of ['GET /mint/', 'GET /staking/', 'GET /mint/all-plans', 'GET /price/current-price']) expect(server.calls(call), call).toHaveLength(1)
    expect(answers.waiting).toEqual([])
    app.stop()
  })

  it('an early answer is used once: the next /user/me goes to the backend', async () => {
    let balance = 10
    const server = backend({ 'GET /maintenance/': maintenanceOff, 'GET /user/me': () => ({ status: 200, body: aUser({ balance_token: balance }) }) })
    const { app } = await boot(server, { cookie: 'token-1' })
    await app.start('')
    balance = 20
    await app.s.session.refresh()
    expect(app.s.session.user?.balance_token).toBe(20)
    expect(server.calls('GET /user/me')).toHaveLength(2)
    app.stop()
  })

  it('a 401 on the early /user/me refreshes the token and asks again, exactly as if the core had asked', async () => {
    const server = backend({
      'GET /maintenance/': maintenanceOff,
      'GET /user/me': (auth) => (auth === 'Bearer token-2' ? { status: 200, body: aUser({ balance_token: 7 }) } : { status: 401, body: { detail: 'Token expired' } }),
      'POST /auth/refresh': () => ({ status: 200, body: { token: 'token-2', refresh: 'refresh-2' } }),
    })
    const { app, session } = await boot(server, { cookie: 'token-1', refresh: 'refresh-1' })
    await app.start('')
    expect(app.phase).toBe('ready')
    expect(app.s.session.user?.balance_token).toBe(7)
    expect(server.signIn().map((s) => `${s.call} ${s.auth ?? ''}`.trim())).toEqual([
      'GET /maintenance/',
      'GET /user/me Bearer token-1',
      // The refresh carries the expired token too (spec §3: every call but maintenance and registration).
      'POST /auth/refresh Bearer token-1',
      'GET /user/me Bearer token-2',
    ])
    expect(session.get('auth_token')).toBe('token-2')
    app.stop()
  })

  it('a 401 whose refresh is refused goes on to register with the init data', async () => {
    const server = backend({
      'GET /maintenance/': maintenanceOff,
      'GET /user/me': (auth) => (auth === 'Bearer token-new' ? { status: 200, body: aUser() } : { status: 401, body: { detail: 'Token expired' } }),
      'POST /auth/refresh': () => ({ status: 401, body: { detail: 'Invalid refresh token' } }),
      'POST /auth/register': () => ({ status: 200, body: { token: 'token-new', refresh: 'refresh-new' } }),
    })
    const { app } = await boot(server, { cookie: 'token-old', refresh: 'refresh-old' })
    await app.start('')
    expect(app.phase).toBe('ready')
    expect(server.signIn().map((s) => s.call)).toEqual([
      'GET /maintenance/',
      'GET /user/me',
      'POST /auth/refresh',
      'POST /auth/register',
      'GET /user/me',
    ])
    app.stop()
  })

  it('under maintenance the early /user/me and lists (503) are dropped: the maintenance page, no toast, no other request', async () => {
    const server = backend({
      'GET /maintenance/': maintenanceOn,
      'GET /user/me': underMaintenance,
      'GET /mint/': underMaintenance,
      'GET /staking/': underMaintenance,
      'GET /mint/all-plans': underMaintenance,
      'GET /price/current-price': underMaintenance,
    })
    const { app, platform } = await boot(server, { cookie: 'token-1' })
    expect(await app.start('')).toBe('maintenance')
    await settle()
    expect(server.seen.map((s) => s.call)).toEqual(['GET /maintenance/', 'GET /user/me', 'GET /mint/', 'GET /staking/', 'GET /mint/all-plans', 'GET /price/current-price'])
    expect(app.s.toasts.toasts).toEqual([])
    expect(platform.haptics).toEqual([])
    app.stop()
  })

  it('a 503 /user/me from just before maintenance ended is dropped too: the core asks the backend anew', async () => {
    let maintenance = true
    const server = backend({
      'GET /maintenance/': maintenanceOff,
      'GET /user/me': () => (maintenance ? underMaintenance() : { status: 200, body: aUser({ balance_token: 3 }) }),
    })
    const { app } = await boot(server, { cookie: 'token-1' })
    maintenance = false
    await app.start('')
    expect(app.phase).toBe('ready')
    expect(app.s.session.user?.balance_token).toBe(3)
    expect(app.s.maintenance.underMaintenance).toBe(false)
    expect(server.calls('GET /user/me')).toHaveLength(2)
    app.stop()
  })

  it('a first visit registers only once the early maintenance check has answered', async () => {
    const check = held()
    const server = backend({
      'GET /maintenance/': () => check.reply,
      'POST /auth/register': () => ({ status: 200, body: { token: 'token-1', refresh: 'refresh-1' } }),
      'GET /user/me': () => ({ status: 200, body: aUser() }),
    })
    const { app } = await boot(server)
    const started = app.start('')
    for (let i = 0; i < 5; i++) await settle()
    expect(server.seen.map((s) => s.call)).toEqual(['GET /maintenance/'])
    check.release(maintenanceOff())
    await started
    expect(server.signIn().map((s) => s.call)).toEqual(['GET /maintenance/', 'POST /auth/register', 'GET /user/me'])
    app.stop()
  })

  it('a first visit under maintenance never registers', async () => {
    const server = backend({ 'GET /maintenance/': maintenanceOn })
    const { app } = await boot(server)
    expect(await app.start('')).toBe('maintenance')
    await settle()
    expect(server.seen.map((s) => s.call)).toEqual(['GET /maintenance/'])
    app.stop()
  })

  it('a request that is not exactly the prefetched call is sent as itself', async () => {
    const server = backend({ 'GET /maintenance/': maintenanceOff, 'GET /user/me': (auth) => ({ status: 200, body: aUser({ ref_code: auth ?? '' }) }) })
    const { app, session, answers } = await boot(server, { cookie: 'token-1' })
    session.set('auth_token', 'token-rotated')
    await app.s.session.refresh()
    expect(app.s.session.user?.ref_code).toBe('Bearer token-rotated')
    expect(answers.waiting).toEqual(['/maintenance/', '/user/me', '/mint/', '/staking/', '/mint/all-plans', '/price/current-price'])
    app.stop()
  })
})
