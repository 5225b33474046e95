import type { FastifyInstance } from 'fastify'
import type { Transformer } from 'grammy'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { ServerContext } from '../domain/context.ts'
import { countBotApiCalls } from './bot-api-calls.ts'
import { createChainProbe, type ChainHead, type ProbeClient } from './chain-probe.ts'
import { readDatabaseFigures, type DatabaseFigures } from './database-figures.ts'
import { optionalGauge } from './optional-gauge.ts'
import { tonOf } from './ton-float.ts'

/** What the metrics read of the running instance besides its database. */
export interface MetricsSources {
  /** What this process does (AXIOM_ROLE: api, worker, all), shown in axiom_instance_info. */
  readonly role: string
  /** Whether it runs the periodic pass (a worker, or all). */
  readonly runsJobs: boolean
  /** The sockets open on this instance now. */
  readonly openSockets: () => { readonly main: number; readonly candles: number }
  /** The instance's v4 client (the chain service's, or an api instance's keyless reader), or null. */
  readonly chainClient: () => ProbeClient | null
  /** How long a scrape waits for the v4 endpoint (default 3 000 ms). */
  readonly chainTimeoutMs?: number
}

export interface Metrics {
  readonly registry: Registry
  /** Counts each answered HTTP request (duration by route pattern and status) and the rate limits' 429s. */
  observeRequests(app: FastifyInstance): void
  /** A socket upgrade refused by the per-IP limits (server/http/socket-limits.ts). */
  socketRefused(): void
  /** Times one periodic (settle) pass and counts how it ended; answers the pass itself. */
  timeSettlePass<T>(pass: Promise<T>): Promise<T>
  /** A transformer for the outbox's Bot API client: every answer counted by method and result. */
  readonly botApi: Transformer
  /** The Prometheus text of a scrape, read now (the database and the chain at this moment). */
  scrape(): Promise<{ readonly contentType: string; readonly body: string }>
}

/** Request durations (seconds): from a cached read to a slow chain call. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
/** Periodic pass durations (seconds). */
const PASS_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]

/** The values each labelled family shows even at zero, so that a rate or an alert sees 0 rather than nothing. */
const PAYMENT_OUTCOMES = ['activated', 'refunded', 'kept', 'ignored', 'held']
const PAYOUT_KINDS = ['sale', 'refund', 'sweep']
const PAYOUT_STATES = ['queued', 'sending', 'paid', 'failed', 'cancelled']
const SALE_STATUSES = ['pending', 'held', 'sending', 'completed', 'failed']
const OUTBOX_STATES = ['pending', 'sending', 'sent', 'refused', 'skipped', 'uncertain']

/** A route a request matched, as its pattern (never the raw URL: ids and queries would make a series each). */
const routeOf = (pattern: string | undefined): string => pattern ?? 'unmatched'

/**
 * The backend's metrics in one prom-client registry of its own (several servers in one process never
 * share one). Counters only where the event is in no table (requests, rate-limit refusals, Bot API
 * answers, pass durations); everything about money, the chain, the outbox and the due positions is a
 * gauge read from the database at scrape time, the same on every instance; the chain's head and the
 * treasury's balance are read through the instance's own v4 client at scrape time.
 */
export const createMetrics = (ctx: ServerContext, sources: MetricsSources): Metrics => {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const probe = createChainProbe({
    client: sources.chainClient,
    treasury: ctx.config.treasuryAddress,
    ...(sources.chainTimeoutMs !== undefined ? { timeoutMs: sources.chainTimeoutMs } : {}),
  })

  // What one scrape read: the gauges below show it (their collect runs inside registry.metrics()).
  let figures: DatabaseFigures | null = null
  let pingSeconds: number | null = null
  let head: ChainHead | null = null
  let chainUp: number | null = null
  let now = ctx.now()

  const info = new Gauge({ name: 'axiom_instance_info', help: 'This instance: its role (api, worker, all) and database engine; always 1', labelNames: ['role', 'database'], registers: [registry] })
  info.set({ role: sources.role, database: ctx.engine.dialect }, 1)

  // HTTP.
  const requests = new Histogram({
    name: 'axiom_http_request_duration_seconds',
    help: 'HTTP requests answered, by method, route pattern and status, and how long each took',
    labelNames: ['method', 'route', 'status'],
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  })
  const refusals = new Counter({
    name: 'axiom_rate_limit_refusals_total',
    help: 'Requests (scope request) and socket upgrades (scope socket) refused by the rate limits',
    labelNames: ['scope'],
    registers: [registry],
  })
  refusals.inc({ scope: 'request' }, 0)
  refusals.inc({ scope: 'socket' }, 0)
  new Gauge({
    name: 'axiom_open_sockets',
    help: 'WebSockets open on this instance, by socket (main, candles)',
    labelNames: ['socket'],
    registers: [registry],
    collect() {
      const open = sources.openSockets()
      this.set({ socket: 'main' }, open.main)
      this.set({ socket: 'candles' }, open.candles)
    },
  })

  // The database.
  new Gauge({
    name: 'axiom_database_up',
    help: 'Whether the database answered this scrape (1) or not (0)',
    registers: [registry],
    collect() {
      this.set(figures ? 1 : 0)
    },
  })
  optionalGauge(registry, 'axiom_database_ping_seconds', 'How long the database took to answer SELECT 1 at this scrape', () => pingSeconds)
  new Gauge({
    name: 'axiom_database_pool_connections',
    help: "PostgreSQL: the transactions' connection pool by state (idle, busy), its size (max), and the transactions waiting for a connection (waiting); absent on SQLite",
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.reset()
      const pool = ctx.engine.poolState?.()
      if (!pool) return
      this.set({ state: 'idle' }, pool.idle)
      this.set({ state: 'busy' }, pool.open - pool.idle)
      this.set({ state: 'max' }, pool.max)
      this.set({ state: 'waiting' }, pool.waiting)
    },
  })

  // The chain.
  optionalGauge(registry, 'axiom_chain_up', 'Whether the v4 endpoint answered this scrape (1) or not (0); absent on an instance with no v4 client', () => chainUp)
  optionalGauge(registry, 'axiom_chain_head_seqno', "The chain's newest masterchain block, as the v4 endpoint answers", () => head?.seqno ?? null)
  optionalGauge(registry, 'axiom_chain_time_seconds', "The chain's newest block's time (unix seconds)", () => head?.now ?? null)
  optionalGauge(registry, 'axiom_treasury_balance_ton', "The treasury's balance on the chain (TON)", () => (head ? tonOf(head.treasuryNano) : null))
  optionalGauge(
    registry,
    'axiom_watcher_seen_time_seconds',
    "The chain time up to which the treasury's watcher has handled every transaction (unix seconds)",
    () => figures?.watcherSeenUntil ?? null,
  )
  const seen = () => figures?.watcherSeenUntil ?? null
  optionalGauge(registry, 'axiom_watcher_lag_seconds', "How far the treasury's watcher is behind the chain's newest block (seconds)", () => {
    const s = seen()
    return head && s !== null ? Math.max(0, head.now - s) : null
  })
  optionalGauge(registry, 'axiom_watcher_lag_blocks', "How many blocks the chain has made past the treasury's watcher", () => {
    const s = seen()
    return head && s !== null ? probe.blocksBehind(s, head) : null
  })

  // Money in: the watcher's decisions.
  const counted = <R extends { count: number; nano?: bigint }>(
    name: string,
    help: string,
    labelNames: string[],
    rows: () => ReadonlyArray<R> | null,
    labelsOf: (r: R) => Record<string, string>,
    zeros: ReadonlyArray<Record<string, string>>,
    value: (r: R) => number,
  ) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        this.reset()
        const all = rows()
        if (!all) return
        for (const z of zeros) this.set(z, 0)
        for (const r of all) this.set(labelsOf(r), value(r))
      },
    })
  const byCount = <R extends { count: number }>(r: R) => r.count
  const byTon = <R extends { nano: bigint }>(r: R) => tonOf(r.nano)
  const outcomes = PAYMENT_OUTCOMES.map((outcome) => ({ outcome }))
  const paymentsOf = () => figures?.payments ?? null
  counted('axiom_chain_payments', 'Payments into the treasury the watcher decided, by outcome (activated: a bond credited; refunded; kept: too small to refund; ignored: no bond comment; held: not confirmed)', ['outcome'], paymentsOf, (r) => ({ outcome: r.outcome }), outcomes, byCount)
  counted('axiom_chain_payments_ton', 'What those payments brought (TON), by outcome', ['outcome'], paymentsOf, (r) => ({ outcome: r.outcome }), outcomes, byTon)

  // Money out: the outgoing queue, and the sales before it.
  const kindsStates = PAYOUT_KINDS.flatMap((kind) => PAYOUT_STATES.map((state) => ({ kind, state })))
  const payoutsOf = () => figures?.payouts ?? null
  counted('axiom_payouts', 'Outgoing payments by kind (sale, refund, sweep) and state (queued, sending: in flight, paid, failed: for the operator, cancelled)', ['kind', 'state'], payoutsOf, (r) => ({ kind: r.kind, state: r.state }), kindsStates, byCount)
  counted('axiom_payouts_ton', 'What those outgoing payments come to (TON), by kind and state', ['kind', 'state'], payoutsOf, (r) => ({ kind: r.kind, state: r.state }), kindsStates, byTon)
  const statuses = SALE_STATUSES.map((status) => ({ status }))
  const salesOf = () => figures?.sales ?? null
  counted('axiom_sales', 'Sales by status (pending: cooling or waiting to be queued; held: over a payout limit, for the operator; sending: in the outgoing queue; completed; failed)', ['status'], salesOf, (r) => ({ status: r.status }), statuses, byCount)
  counted('axiom_sales_ton', 'What those sales pay (TON), by status', ['status'], salesOf, (r) => ({ status: r.status }), statuses, byTon)
  optionalGauge(registry, 'axiom_payout_hour_outflow_ton', "What left the treasury, or may have, in the last hour (TON): the breaker's own figure", () =>
    figures ? tonOf(figures.hourOutflowNano) : null,
  )
  new Gauge({
    name: 'axiom_payout_limit_ton',
    help: 'The payout limits set (TON): sale (AXIOM_PAYOUT_MAX_SALE), user_day, hour, reserve (AXIOM_TREASURY_RESERVE); absent when not set',
    labelNames: ['limit'],
    registers: [registry],
    collect() {
      this.reset()
      const l = ctx.config.payoutLimits
      const set = (limit: string, nano: bigint | null) => nano !== null && this.set({ limit }, tonOf(nano))
      set('sale', l.maxSaleNano)
      set('user_day', l.maxUserDayNano)
      set('hour', l.maxHourNano)
      set('reserve', l.treasuryReserveNano)
    },
  })
  optionalGauge(registry, 'axiom_payout_max_lag_seconds', 'AXIOM_PAYOUT_MAX_LAG_S: the watcher lag at which the breaker stops the payouts', () => ctx.config.payoutLimits.maxLagS)
  optionalGauge(registry, 'axiom_payout_breaker_causes', 'How many causes the last payout pass found to wait (0: payouts go); absent before any pass', () => figures?.breakerCauses ?? null)
  optionalGauge(registry, 'axiom_payouts_paused', "The operator's pause (npm run admin -- payouts pause): 1 paused, 0 not", () => (figures ? (figures.paused ? 1 : 0) : null))

  // The Telegram outbox.
  const outboxOf = () => figures?.outbox ?? null
  counted('axiom_outbox_messages', 'Notification rows by state (pending: to send, sending, sent, refused, skipped, uncertain)', ['state'], outboxOf, (r) => ({ state: r.state }), OUTBOX_STATES.map((state) => ({ state })), byCount)
  optionalGauge(registry, 'axiom_outbox_oldest_pending_seconds', 'How long the oldest pending notification has waited (seconds; 0 when none waits)', () =>
    figures ? (figures.outboxOldestPendingAt === null ? 0 : Math.max(0, now - figures.outboxOldestPendingAt)) : null,
  )
  const botCalls = new Counter({
    name: 'axiom_telegram_api_requests_total',
    help: "The notification sender's Bot API answers by method and result (ok, Telegram's error code such as 429 or 403, network), every attempt",
    labelNames: ['method', 'result'],
    registers: [registry],
  })

  // The periodic pass.
  const passes = new Histogram({
    name: 'axiom_settle_pass_duration_seconds',
    help: 'Periodic (settle) passes run on this instance, by outcome (ok, failed), and how long each took',
    labelNames: ['outcome'],
    buckets: PASS_BUCKETS,
    registers: [registry],
  })
  // Shown at zero where the pass runs (a worker, or all), so that a rate of failures reads 0, not nothing.
  if (sources.runsJobs) for (const outcome of ['ok', 'failed']) passes.zero({ outcome })
  new Gauge({
    name: 'axiom_settle_due_positions',
    help: 'Active positions whose term has ended, by table (mints, stakes): what the periodic pass has yet to complete',
    labelNames: ['table'],
    registers: [registry],
    collect() {
      this.reset()
      if (!figures) return
      this.set({ table: 'mints' }, figures.due.mints)
      this.set({ table: 'stakes' }, figures.due.stakes)
    },
  })

  // The price.
  optionalGauge(registry, 'axiom_price_age_seconds', 'How old the quoted price is (seconds): the recorded price\'s last tick (+Inf when none is recorded); 0 for the dev walk, which is always current', () => {
    if (ctx.config.priceSource === 'walk') return 0
    if (!figures) return null
    return figures.lastPriceAt === null ? Number.POSITIVE_INFINITY : Math.max(0, now - figures.lastPriceAt)
  })
  optionalGauge(registry, 'axiom_price_max_age_seconds', 'AXIOM_PRICE_MAX_AGE: the price age at which bonds and sales pause; absent when none', () => ctx.config.priceMaxAgeS)

  const readFigures = async () => {
    try {
      const t0 = performance.now()
      await ctx.engine.one('SELECT 1 AS ok')
      pingSeconds = (performance.now() - t0) / 1000
      figures = await readDatabaseFigures(ctx)
    } catch {
      pingSeconds = null
      figures = null
    }
  }
  const readChain = async () => {
    try {
      head = await probe.head()
      chainUp = sources.chainClient() ? 1 : null
    } catch {
      head = null
      chainUp = 0
    }
  }

  return {
    registry,
    observeRequests: (app) => {
      app.addHook('onResponse', async (req, reply) => {
        const status = reply.statusCode
        requests.observe({ method: req.method, route: routeOf(req.routeOptions.url), status: String(status) }, reply.elapsedTime / 1000)
        // The API's only 429 is the rate limits' (server/http/rate-limits.ts).
        if (status === 429) refusals.inc({ scope: 'request' })
      })
    },
    socketRefused: () => refusals.inc({ scope: 'socket' }),
    timeSettlePass: (pass) => {
      const end = passes.startTimer()
      return pass.then(
        (v) => {
          end({ outcome: 'ok' })
          return v
        },
        (e: unknown) => {
          end({ outcome: 'failed' })
          throw e
        },
      )
    },
    botApi: countBotApiCalls((method, result) => botCalls.inc({ method, result })),
    scrape: async () => {
      now = ctx.now()
      await Promise.all([readFigures(), readChain()])
      return { contentType: registry.contentType, body: await registry.metrics() }
    },
  }
}
