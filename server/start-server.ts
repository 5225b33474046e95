import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { WebSocketServer, type WebSocket } from 'ws'
import { createAdmin, type Admin } from './admin-ops.ts'
import { publicKeyOnChain, startChainService, type ChainService, type ChainServiceOptions } from './chain/chain-service.ts'
import { defaultConfig, type ServerConfig } from './config/config.ts'
import type { ServerContext } from './domain/context.ts'
import type { Lease } from './cluster/cluster.ts'
import { openCluster } from './cluster/open-cluster.ts'
import { openEngine } from './db/open-engine.ts'
import { advanceChainCursor, creditBondPayment, readChainCursor, TREASURY_CURSOR, type ChainCursor, type CursorStep } from './domain/chain-cursor.ts'
import { bondPayment, markMintPaid, type BondPayment } from './domain/mints.ts'
import { periodicPass } from './periodic-pass.ts'
import { createPriceFeed } from './domain/price-walk.ts'
import { createRecordedPriceFeed } from './domain/recorded-price.ts'
import { salePayouts, type SalePayouts } from './domain/sale-payouts.ts'
import { readChange } from './domain/user-events.ts'
import { forgetSettings } from './domain/settings.ts'
import { forgetValidFamilies, noteFamilyRevoked } from './auth/tokens.ts'
import { recordTonProofRequesters } from './domain/wallets.ts'
import { type Change, noQueue } from './domain/events.ts'
import { buildApp, registerProbes } from './app.ts'
import { exactRateLimitStore } from './db/rate-limit-table.ts'
import { FOREIGN_ORIGIN_MSG, originAllowed, refuseUpgrade, socketLimiter } from './http/socket-limits.ts'
import { limitMessages } from './sockets/message-limits.ts'
import { priceWire } from './http/wire-format.ts'
import { handleCandleSocket, pushCandles } from './sockets/candle-socket.ts'
import { createHub, LIVE_GAP_CLOSE, liveEvents, type SocketHub } from './sockets/hub.ts'
import { handleMainSocket } from './sockets/main-socket.ts'
import { createTelegramGateway } from './telegram/gateway.ts'
import { createBotApi } from './telegram/bot-api.ts'
import { startOutboxSender, type OutboxSender } from './telegram/outbox.ts'
import { createMetrics } from './observability/metrics.ts'
import { listenMetrics, type MetricsAddress } from './observability/metrics-server.ts'
import { TonClient4 } from '@ton/ton'
import { DEFAULT_ROLE, runsJobs, servesApi, WORKER_HOST, type Role } from './config/role.ts'
import Fastify from 'fastify'
import { fastifyLogOptions } from './http/request-log.ts'

export interface StartOptions extends Partial<ServerConfig> {
  /** Unix seconds; tests pass a movable clock. */
  readonly now?: () => number
  /** The chain's watcher and payouts, started with the server (production); else RunningServer.startChain. */
  readonly chain?: ChainServiceOptions
  /**
   * What this process does (AXIOM_ROLE, server/config/role.ts): `api` serves HTTP and the sockets and
   * runs no chain service, periodic pass or notification sender (`chain` or startChain is refused);
   * `worker` runs those and listens on 127.0.0.1 only, for /health and /ready; `all` (the default) both.
   */
  readonly role?: Role
  /**
   * A v4 endpoint read without any key, for what an api instance asks of the chain (a wallet's public
   * key when a tonProof's contract is not one the service knows). The chain service's own client
   * serves that when there is one.
   */
  readonly chainReader?: { readonly endpoint: string; readonly timeoutMs?: number }
  /**
   * The Prometheus metrics' own listener (AXIOM_METRICS_PORT, server/observability/): another port than
   * the API's, which nginx does not proxy. None when absent or null.
   */
  readonly metrics?: MetricsAddress | null
}

export interface RunningServer {
  /** What this process does (StartOptions.role). */
  readonly role: Role
  /** http://host:port, no trailing slash. */
  readonly url: string
  readonly port: number
  /** http://host:port/metrics of the metrics' own listener, or null (StartOptions.metrics). */
  readonly metricsUrl: string | null
  readonly ctx: ServerContext
  readonly app: FastifyInstance
  readonly hub: SocketHub
  readonly admin: Admin
  /** The address bond payments go to (config.treasuryAddress). */
  readonly treasuryAddress: string
  /** The server's clock, unix seconds. */
  now(): number
  /** A bond's payment terms (status, TON due, last moment to pay), or null: what a chain watcher checks a payment against. */
  bondPayment(mintId: bigint): Promise<BondPayment | null>
  /**
   * A bond's TON payment arrived (what a chain watcher calls): the bond becomes active. Throws
   * NotFound, BondNotPending (already paid or cancelled), or Underpaid.
   */
  markMintPaid(mintId: bigint | number, paidNano?: bigint): ReturnType<typeof markMintPaid>
  /** How far the chain watcher `name` has handled its account's transactions, or null (nothing yet). */
  readChainCursor(name: string): Promise<ChainCursor | null>
  /**
   * Compare-and-set of a chain watcher's cursor: from `expected` (null: none stored) to `next`.
   * Throws CursorMoved, writing nothing, when the stored cursor is not `expected`.
   */
  advanceChainCursor(name: string, expected: ChainCursor | null, next: ChainCursor): Promise<void>
  /**
   * A bond's payment seen by a chain watcher: moves its cursor (`step`, as advanceChainCursor) and
   * marks the bond paid (as markMintPaid) in one transaction: both commit or neither. Throws
   * CursorMoved, or what markMintPaid throws.
   */
  creditBondPayment(mintId: bigint, paidNano: bigint, step: CursorStep): ReturnType<typeof markMintPaid>
  /** The sales whose TON is still to be sent, and their payout states (what a payout processor drives). */
  readonly payouts: SalePayouts
  /**
   * Turns on a record of whom each wallet-binding tonProof payload was issued to, and returns its
   * lookup: payload → the requester's Telegram id, or null. Off until called; only the local dev
   * wallet needs it, to answer each user with a wallet of their own.
   */
  tonProofRequesters(): (payload: string) => string | null
  /**
   * The lease `name` among the instances on one PostgreSQL (one holder at a time; another takes it
   * within leaseRetryMs when the holder dies); on SQLite, always held. What a chain watcher or payout
   * loop checks before it acts, so that several instances run one of each (`chain-watcher`, `payouts`).
   */
  lease(name: string): Promise<Lease>
  /**
   * Starts the treasury's watcher and payouts through the TON HTTP API v4 (server/chain/), on the
   * leases `chain-watcher` and `payouts`. Once; a second call answers the first service.
   */
  startChain(options: ChainServiceOptions): Promise<ChainService>
  /** The chain service, once started. */
  chain(): ChainService | null
  /** The notification sender (with config.telegram): it sends while this instance holds the `telegram-outbox` lease. */
  readonly outbox: OutboxSender | null
  /** Whether this instance drives the price (holds the `price` lease); the others relay its ticks. */
  drivesPrice(): boolean
  /** Runs one price tick now (broadcast price_update and current_candle to every instance's sockets) if this instance drives the price. */
  tick(): Promise<void>
  close(): Promise<void>
}

/**
 * A worker's HTTP (AXIOM_ROLE=worker, server/config/role.ts): /health and /ready for its container's
 * probe, as the api instances answer them, and 404 for everything else. No API route is mounted, so
 * none can be reached on it, whatever a proxy or a neighbour sends.
 */
const buildWorkerApp = (ctx: ServerContext): FastifyInstance => {
  const app = Fastify({ ...fastifyLogOptions(ctx.config.logger), exposeHeadRoutes: false, requestTimeout: ctx.config.requestTimeoutMs })
  registerProbes(app, ctx, { status: 'ok', role: 'worker' })
  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ msg: 'Not found' }))
  return app
}

const MAIN_PATHS = new Set(['/api/ws', '/api/ws/'])
const API_RUNS_NO_CHAIN = 'an api instance (AXIOM_ROLE=api) runs no chain service and holds no treasury key: the watcher and payouts are the worker\'s'
const CANDLE_PATHS = new Set(['/api/ws/candles', '/api/ws/candles/'])

/** Starts the reference backend: migrations, HTTP, both sockets, the price ticker and the settle job. */
export const startServer = async (options: StartOptions = {}): Promise<RunningServer> => {
  const { now, chain: chainOptions, role = DEFAULT_ROLE, chainReader, metrics: metricsAt, ...overrides } = options
  // An api instance never holds the treasury key: it is given no chain service to start.
  if (!runsJobs(role) && chainOptions) throw new Error(API_RUNS_NO_CHAIN)
  let chainNow: ChainService | null = null
  const config: ServerConfig = { ...defaultConfig(), ...overrides, ...(servesApi(role) ? {} : { host: WORKER_HOST }) }
  const reader = chainReader ? new TonClient4({ endpoint: chainReader.endpoint, timeout: chainReader.timeoutMs ?? 10_000 }) : null
  const engine = await openEngine(config.dbPath)
  const cluster = await openCluster(config.dbPath, engine, { retryMs: config.leaseRetryMs })
  const forgetWhatChanged = (changes: readonly Change[]) => {
    for (const change of changes) {
      if (change.kind === 'revoked') {
        noteFamilyRevoked(ctx, change.family)
        // The session's sockets on this instance close at once, not at their token's expiry.
        hub.closeFamily(change.family)
      }
      if (change.kind === 'setting' || change.kind === 'collective') forgetSettings(engine)
    }
  }
  const recorded = config.priceSource === 'recorded' ? await createRecordedPriceFeed(engine).catch(async (e: unknown) => {
    await cluster.close()
    await engine.close()
    throw e
  }) : null
  const ctx: ServerContext = {
    db: engine,
    engine,
    config,
    now: now ?? (() => Math.floor(Date.now() / 1000)),
    events: noQueue,
    // Every committed change goes to every instance, which reads it back for the sockets it holds.
    // This instance forgets what the change makes stale at once: its next read must see its own write
    // even before the announcement comes back.
    live: {
      deliver: (changes) => {
        if (changes.length === 0) return Promise.resolve()
        forgetWhatChanged(changes)
        return cluster.publish({ type: 'changes', changes })
      },
    },
    price: recorded ?? createPriceFeed(config.priceSeed),
    chainPublicKey: (address) => {
      const client = chainNow?.client ?? reader
      return client ? publicKeyOnChain(client, address) : Promise.resolve(null)
    },
    telegram: config.telegram ? createTelegramGateway(config.botToken, config.telegram) : null,
  }
  const hub = createHub()
  const sink = liveEvents(hub)
  cluster.subscribe(async (m) => {
    if (m.type === 'tick') {
      await recorded?.refresh()
      hub.broadcast('price_update', priceWire(ctx.price.current(m.at)))
      pushCandles(ctx, hub, m.at)
      return
    }
    forgetWhatChanged(m.changes)
    for (const change of m.changes) {
      // A user's change is read back only where that user has a socket: a pass that completes 40 000
      // positions announces as many changes, and every instance read each (it held shutdown 5 s).
      if ('userId' in change && !hub.hasUser(change.userId)) continue
      const e = await readChange(engine, change)
      if (!e) continue
      if (e.userId === null) sink.broadcast(e.event)
      else sink.toUser(e.userId, e.event)
    }
  })
  // Announcements missed while the listening connection was down: what this instance keeps is read
  // again, and its sockets are closed so their clients connect again and read the state anew (the
  // app refetches the user and the lists when its main socket is back after a drop).
  cluster.onGap(() => {
    forgetSettings(engine)
    forgetValidFamilies(ctx)
    hub.closeAll(LIVE_GAP_CLOSE, 'Live events were interrupted: connect again')
  })
  // One instance drives the price walk; the others relay its ticks to their sockets. A worker has no
  // sockets: it takes no part.
  const priceLease: Lease = servesApi(role) ? await cluster.lease('price') : { held: () => false, onAcquired: () => undefined }
  // A worker answers its container's probe (/health, /ready) and nothing else, even on 127.0.0.1.
  const app = servesApi(role) ? buildApp(ctx) : buildWorkerApp(ctx)
  // The metrics (server/observability/): read at scrape time, served on their own port after the API's is up.
  const metrics = metricsAt
    ? createMetrics(ctx, { role, runsJobs: runsJobs(role), openSockets: () => ({ main: mainWss.clients.size, candles: candleWss.clients.size }), chainClient: () => chainNow?.client ?? reader })
    : null
  metrics?.observeRequests(app)
  // One sender across the instances: the holder of the `telegram-outbox` lease; never on an api instance.
  const outboxLease = config.telegram && runsJobs(role) ? await cluster.lease('telegram-outbox') : null
  const outbox =
    config.telegram && outboxLease
      ? startOutboxSender(ctx, createBotApi({ token: config.botToken, apiRoot: config.telegram.apiRoot, maxRetryAfterS: 60, timeoutSeconds: 10, ...(metrics ? { observe: metrics.botApi } : {}) }), {
          perSecond: config.telegram.notifyPerSecond,
          held: () => outboxLease.held(),
          idleMs: 1_000,
          maxBackoffS: 300,
          miniAppLink: config.telegram.miniAppLink,
        })
      : null

  // One server per socket, each with its largest message (ws closes with 1009 past it).
  const mainWss = new WebSocketServer({ noServer: true, maxPayload: config.socketMessages.mainMaxBytes })
  const candleWss = new WebSocketServer({ noServer: true, maxPayload: config.socketMessages.candleMaxBytes })
  const allSockets = () => [...mainWss.clients, ...candleWss.clients]
  const socketLog = (e: unknown, where: string) => app.log.error({ err: e }, where)
  const alive = new WeakSet<WebSocket>()
  // Upgrades never reach Fastify's hooks, so the sockets have limits of their own, per IP read as the
  // request limits read it; the upgrades a minute count where the requests count (shared on PostgreSQL).
  const limits = config.rateLimits
  const sockets = socketLimiter(limits?.sockets ?? null, {
    trustProxy: config.trustProxy,
    clients: limits?.clients ?? 0,
    store: config.rateLimitStore?.('sockets') ?? (engine.dialect === 'postgres' ? exactRateLimitStore(engine) : null),
  })
  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const handler = !servesApi(role) ? null : MAIN_PATHS.has(path) ? handleMainSocket : CANDLE_PATHS.has(path) ? handleCandleSocket : null
    if (!handler) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n')
      return
    }
    const wss = handler === handleMainSocket ? mainWss : candleWss
    // A page of another site would open the socket from the user's browser: refused before anything is counted.
    if (!originAllowed(req, config.appOrigins)) return refuseUpgrade(socket, { status: 403, msg: FOREIGN_ORIGIN_MSG, retryAfterS: null })
    void sockets
      .admit(req, socket)
      .then((admission) => {
        if (!admission.ok) {
          metrics?.socketRefused()
          return refuseUpgrade(socket, admission.refusal)
        }
        if (socket.destroyed) return
        wss.handleUpgrade(req, socket, head, (ws) => {
          alive.add(ws)
          ws.on('pong', () => alive.add(ws))
          ws.on('error', () => ws.terminate())
          limitMessages(ws, config.socketMessages.perSocket)
          handler(ctx, hub, ws, socketLog)
        })
      })
      .catch((e: unknown) => {
        app.log.error(e)
        socket.destroy()
      })
  })

  const tick = async () => {
    await recorded?.refresh()
    if (priceLease.held()) await cluster.publish({ type: 'tick', at: ctx.now() })
  }
  let settling: Promise<void> | null = null
  // Shutdown stops the pass between two batches, so close() never waits for a whole pass.
  const stopping = new AbortController()
  const timers: ReturnType<typeof setInterval>[] = []
  if (servesApi(role)) timers.push(setInterval(() => void tick().catch((e: unknown) => app.log.error(e)), config.priceTickMs))
  // The periodic pass (bond and stake completion, unpaid bonds, pruning): the worker's, never an api instance's.
  const periodic = periodicPass(ctx, { get watched() { return chain !== null } })
  if (runsJobs(role)) timers.push(
    setInterval(() => {
      // One run at a time: a slow run is not overtaken by the next.
      if (settling) return
      const pass = periodic.run({ signal: stopping.signal })
      settling = (metrics ? metrics.timeSettlePass(pass) : pass)
        .then(
          () => undefined,
          (e: unknown) => app.log.error(e),
        )
        .finally(() => {
          settling = null
        })
    }, config.settleEveryMs),
  )
  // A client that missed a whole heartbeat is dropped.
  if (servesApi(role)) timers.push(
    setInterval(() => {
      for (const ws of allSockets()) {
        if (!alive.has(ws)) {
          ws.terminate()
          continue
        }
        alive.delete(ws)
        ws.ping()
      }
    }, config.heartbeatMs),
  )
  for (const t of timers) t.unref()

  let chain: Promise<ChainService> | null = null
  // With the log on, the chain's lines join it (JSON, `component: chain`); off, they go to stderr as `[chain] …`.
  const chainLog: Pick<ChainServiceOptions, 'log'> = config.logger
    ? { log: (msg, e) => app.log.warn({ component: 'chain', ...(e === undefined || e === '' ? {} : { err: e instanceof Error ? e : new Error(String(e)) }) }, msg) }
    : {}
  const startChain = (o: ChainServiceOptions) => {
    if (!runsJobs(role)) return Promise.reject(new Error(API_RUNS_NO_CHAIN))
    return (chain ??= (async () => startChainService(ctx, { watcher: await cluster.lease('chain-watcher'), payouts: await cluster.lease('payouts') }, { ...chainLog, ...o }))())
  }
  if (chainOptions) chainNow = await startChain(chainOptions)

  await app.listen({ port: config.port, host: config.host })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  const metricsListener = metrics && metricsAt ? await listenMetrics(metrics.scrape, metricsAt, (e) => app.log.error(e)) : null

  return {
    role,
    url: `http://${config.host}:${port}`,
    port,
    metricsUrl: metricsListener?.url ?? null,
    ctx,
    app,
    hub,
    admin: createAdmin(ctx, { chainWatched: () => chain !== null }),
    treasuryAddress: config.treasuryAddress,
    now: ctx.now,
    bondPayment: (mintId) => bondPayment(ctx, mintId),
    markMintPaid: (mintId, paidNano) => markMintPaid(ctx, BigInt(mintId), paidNano),
    readChainCursor: (name) => readChainCursor(ctx, name),
    advanceChainCursor: (name, expected, next) => advanceChainCursor(ctx, { name, expected, next }),
    creditBondPayment: (mintId, paidNano, step) => creditBondPayment(ctx, mintId, paidNano, step),
    payouts: salePayouts(ctx),
    tonProofRequesters: () => recordTonProofRequesters(ctx),
    lease: (name) => cluster.lease(name),
    startChain: async (o) => (chainNow = await startChain(o)),
    chain: () => chainNow,
    outbox,
    drivesPrice: () => priceLease.held(),
    tick,
    close: async () => {
      for (const t of timers) clearInterval(t)
      await metricsListener?.close()
      stopping.abort()
      if (chain) await (await chain).stop()
      await outbox?.stop()
      for (const ws of allSockets()) ws.terminate()
      mainWss.close()
      candleWss.close()
      await app.close()
      await settling
      await cluster.close()
      await engine.close()
    },
  }
}
