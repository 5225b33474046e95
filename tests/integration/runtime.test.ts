import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Effect } from 'effect'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { WsSocketFactory } from '../../adapters/node/ws-socket-factory.ts'
import { FetchHttpTransport } from '../../adapters/shared/fetch-http-transport.ts'
import { InMemoryKeyValueStore } from '../../adapters/shared/in-memory-key-value-store.ts'
import { SystemClock } from '../../adapters/shared/system-clock.ts'
import {
  BackgroundReads,
  keepNewestPending,
  makeHttpAxiomApi,
  useCases,
  withErrorPolicy,
  type LiveEvent,
  type Mint,
  mergeLiveRecord,
  nowSeconds,
  openMainSocket,
  type ReconnectingSocket,
} from '../../core/index.ts'
import { DEV_BOT_TOKEN, type RunningServer, startServer } from '../../server/main.ts'
import { FakeChainReader } from '../core/fakes/fake-chain-reader.ts'
import { MemorySessionStore } from '../core/fakes/memory-stores.ts'
import { FakePlatform, launchData } from '../core/fakes/fake-platform.ts'
import { RecordingNotifier } from '../core/fakes/recording-notifier.ts'
import { ScriptedWallet } from '../core/fakes/scripted-wallet.ts'
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.ts'
import { signInitDataFor } from '../support/init-data.ts'

const signedInitData = (id: number) => signInitDataFor({ id, first_name: `User ${id}` }, Math.floor(Date.now() / 1000), DEV_BOT_TOKEN)

/** The core composed with the Node adapters over a real backend, as the CLI composes it, with the §8 error policy the app adds. */
const clientOf = (origin: string, userId: number, options: { apiTimeoutMs?: number; initData?: string } = {}) => {
  const platform = new FakePlatform(launchData({ initData: options.initData ?? signedInitData(userId), userId: String(userId) }))
  const notifier = new RecordingNotifier()
  const session = new MemorySessionStore()
  const ports = {
    http: new FetchHttpTransport({ origin }),
    sockets: new WsSocketFactory(origin),
    session,
    storage: new InMemoryKeyValueStore(),
    clock: new SystemClock(),
    platform,
    notifier,
    wallet: new ScriptedWallet(),
    chain: new FakeChainReader(),
  }
  const api = makeHttpAxiomApi({ http: ports.http, session, ...(options.apiTimeoutMs ? { timeoutMs: options.apiTimeoutMs } : {}) })
  const uc = withErrorPolicy(useCases({ ...ports, api }), { notifier, platform, background: new BackgroundReads() })
  const run = <A, E>(e: Effect.Effect<A, E>) => Effect.runPromise(Effect.result(e))
  return { ...ports, uc, api, run }
}

const until = async (what: string, condition: () => boolean, timeoutMs = 15_000) => {
  const end = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe('the core over the Node adapters, against the reference backend', () => {
  let dir: string
  let server: RunningServer
  let port: number
  let socket: ReconnectingSocket | null = null

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'axiom-runtime-'))
    server = await startServer({ port: 0, dbPath: join(dir, 'axiom.db'), priceTickMs: 200 })
    port = server.port
  })
  afterEach(() => {
    socket?.close()
    socket = null
  })
  afterAll(async () => {
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('signs in with real signed initData, loads the user, lists and creates bonds, and merges live events', async () => {
    const c = clientOf(server.url, 50_001)
    expect((await c.run(c.uc.authenticate()))._tag).toBe('Success')
    const user = await c.run(c.uc.loadUser())
    expect(user._tag === 'Success' && user.success?.ref_code).toBeTruthy()

    const plans = await c.run(c.uc.loadBondPlans())
    expect(plans._tag === 'Success' && plans.success.length).toBeGreaterThan(0)
    const days = plans._tag === 'Success' ? plans.success[0]!.days : 0

    let mints: Mint[] = []
    const events: LiveEvent[] = []
    socket = openMainSocket({ sockets: c.sockets, session: c.session }, (e) => {
      events.push(e)
      if (e.event === 'user:mint') mints = keepNewestPending(mergeLiveRecord(mints, e.data), nowSeconds(c.clock))
    })
    await until('the socket to open', () => socket?.status() === 'open')

    const created = await c.run(c.api.createMint({ amount: 10, days }, { idempotencyKey: 'bond-1' }))
    if (created._tag !== 'Success') throw new Error('createMint failed')
    mints = [created.success.mint]
    expect(mints[0]?.status).toBe('pending')

    await server.markMintPaid(Number(created.success.mint.id))
    await until('the live bond', () => mints[0]?.status === 'active')
    expect(mints).toHaveLength(1)
    await until('a price update', () => events.some((e) => e.event === 'price_update'))

    const listed = await c.run(c.uc.loadMints())
    expect(listed._tag === 'Success' && listed.success.map((m) => [m.id, m.status])).toEqual([[created.success.mint.id, 'active']])
  })

  it('refreshes an expired token once and retries the call', async () => {
    const c = clientOf(server.url, 50_002)
    await c.run(c.uc.authenticate())
    c.session.set('auth_token', 'expired-or-forged')
    const refreshBefore = c.session.get('refresh_token')

    const user = await c.run(c.uc.loadUser())

    expect(user._tag === 'Success' && user.success).toBeTruthy()
    expect(c.session.get('auth_token')).not.toBe('expired-or-forged')
    expect(c.session.get('refresh_token')).not.toBe(refreshBefore)
    expect(c.notifier.texts).toEqual([])
  })

  it('survives a backend restart: the socket reconnects, state catches up, nothing is duplicated', async () => {
    const c = clientOf(server.url, 50_003)
    await c.run(c.uc.authenticate())
    let mints: Mint[] = []
    let balances = 0
    const statuses: string[] = []
    socket = openMainSocket(
      { sockets: c.sockets, session: c.session },
      (e) => {
        if (e.event === 'user:mint') mints = mergeLiveRecord(mints, e.data)
        // The server's answer to the token: from then on it pushes this user's events to the socket.
        if (e.event === 'user:balance') balances++
      },
      (s) => statuses.push(s),
    )
    await until('the socket to open', () => socket?.status() === 'open')
    await until('the server to take the token', () => balances > 0)
    const created = await c.run(c.api.createMint({ amount: 5, days: 30 }, { idempotencyKey: 'bond-restart' }))
    if (created._tag !== 'Success') throw new Error('createMint failed')

    const balancesBefore = balances
    await server.close()
    await until('the socket to notice', () => socket?.status() !== 'open')
    server = await startServer({ port, dbPath: join(dir, 'axiom.db'), priceTickMs: 200 })
    await until('the socket to reconnect', () => socket?.status() === 'open', 20_000)
    // Open is the client's side; the push below needs the server to have taken the token.
    await until('the server to take the token again', () => balances > balancesBefore)

    await server.markMintPaid(Number(created.success.mint.id))
    await until('the live bond after the restart', () => mints.some((m) => m.status === 'active'))
    const listed = await c.run(c.uc.loadMints())
    expect(listed._tag === 'Success' && listed.success.filter((m) => String(m.id) === String(created.success.mint.id))).toHaveLength(1)
    expect(mints).toHaveLength(1)
    expect(statuses.filter((s) => s === 'open').length).toBeGreaterThanOrEqual(2)

    // The same purchase sent again after the restart has no second effect.
    const again = await c.run(c.api.createMint({ amount: 5, days: 30 }, { idempotencyKey: 'bond-restart' }))
    expect(again._tag === 'Success' && again.success.mint.id).toBe(created.success.mint.id)
  }, 40_000)
})

describe('each §8 case, end to end, with its exact message', () => {
  let server: RunningServer
  let proxy: FaultProxy

  beforeAll(async () => {
    server = await startServer({ port: 0, dbPath: ':memory:' })
    proxy = await startFaultProxy(server.url)
  })
  afterEach(() => proxy.clear())
  afterAll(async () => {
    await proxy.close()
    await server.close()
  })

  const signedIn = async (id: number, options: { apiTimeoutMs?: number } = {}) => {
    const c = clientOf(proxy.url, id, options)
    await c.run(c.uc.authenticate())
    return c
  }

  it('500: "Error: " + the server message, and a read resolves empty', async () => {
    const c = await signedIn(60_001)
    proxy.fail('/task/list', { kind: 'status', status: 500, msg: 'Database unavailable' })
    const tasks = await c.run(c.uc.loadTasks())
    expect(tasks._tag === 'Success' && tasks.success).toEqual([])
    expect(c.notifier.texts).toEqual(['Error: Database unavailable'])
    expect(c.platform.haptics).toEqual(['error'])
  })

  it('401 with invalid init data: the message, the token removed, the app closed', async () => {
    const c = clientOf(proxy.url, 60_002, { initData: 'user=%7B%22id%22%3A60002%7D&auth_date=1&hash=00' })
    const r = await c.run(c.uc.authenticate())
    expect(r._tag).toBe('Failure')
    expect(c.notifier.texts).toEqual(['Invalid WebApp init data'])
    expect(c.platform.closes).toBe(1)
  })

  it('400/404/422: "Error: " + msg from the real server', async () => {
    const c = await signedIn(60_003)
    const r = await c.run(c.uc.sellTokens({ amount: 1e9, address: `0:${'12'.repeat(32)}`, fromReferral: false }))
    expect(r._tag).toBe('Failure')
    expect(c.notifier.texts).toHaveLength(1)
    expect(c.notifier.texts[0]).toMatch(/^Error: /)
  })

  it('413: the file-size message from the real server', async () => {
    const c = await signedIn(60_004)
    const tasks = await c.run(c.uc.loadTasks())
    const photo = tasks._tag === 'Success' ? tasks.success.find((t) => t.kind === 'photo') : undefined
    if (!photo) throw new Error('the backend has no photo task')
    const started = await c.run(c.uc.advanceTask(photo))
    expect(started._tag).toBe('Success')
    const big = `data:image/jpeg;base64,${Buffer.alloc(3 * 1024 * 1024, 1).toString('base64')}`
    const r = await c.run(c.uc.advanceTask({ ...photo, status: 'STARTED' }, { photo: big }))
    expect(r._tag === 'Failure' && r.failure._tag).toBe('PayloadTooLarge')
    expect(c.notifier.texts).toEqual(['Error: File size is too large! Upload a smaller file.'])
  })

  it('network error: "Error: Network Error! Code: ERR_NETWORK"', async () => {
    const c = await signedIn(60_005)
    proxy.fail('/user/me', { kind: 'drop' })
    await c.run(c.uc.loadUser())
    expect(c.notifier.texts).toEqual(['Error: Network Error! Code: ERR_NETWORK'])
  })

  it('timeout: "Error: Timeout Error!"', async () => {
    const c = await signedIn(60_006, { apiTimeoutMs: 300 })
    proxy.fail('/price/current-price', { kind: 'delay', ms: 2_000 })
    await c.run(c.uc.loadPrice())
    expect(c.notifier.texts).toEqual(['Error: Timeout Error!'])
  })
})
