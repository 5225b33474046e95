/**
 * Chaos: 200 scripted user operations from the app's own client (the core's use cases over the
 * Node adapters, and the app's state fed by its main socket) against the real backend on a file
 * database, while the backend is restarted 5 times, the main socket is cut 20 times and a proxy
 * breaks about 10 % of the calls (500s, and answers dropped after the backend acted). Afterwards
 * nothing is lost or applied twice, the ledger balances, and every client shows what the server holds.
 * Replay a run with CHAOS_SEED=<seed>.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Effect } from 'effect'
import { afterAll, describe, expect, it } from 'vitest'
import { FetchHttpTransport } from '../../adapters/shared/fetch-http-transport.ts'
import { SystemClock } from '../../adapters/shared/system-clock.ts'
import { WsSocketFactory } from '../../adapters/node/ws-socket-factory.ts'
import { composeApp } from '../../composition-root.ts'
import {
  type AxiomApi,
  keepNewestPending,
  MAIN_SOCKET_PATH,
  makeHttpAxiomApi,
  type PortBindings,
  type UseCases,
  useCases,
} from '../../core/index.ts'
import { DEV_BOT_TOKEN, startServer, type RunningServer, type StartOptions } from '../../server/main.ts'
import type { AppState } from '../../ui/app/app-state.ts'
import { FakeChainReader } from '../core/fakes/fake-chain-reader.ts'
import { FakePlatform, launchData } from '../core/fakes/fake-platform.ts'
import { MemoryKeyValueStore, MemorySessionStore } from '../core/fakes/memory-stores.ts'
import { RecordingNotifier } from '../core/fakes/recording-notifier.ts'
import { ScriptedWallet } from '../core/fakes/scripted-wallet.ts'
import { seededUnit, startChaosProxy, type ChaosProxy } from '../support/chaos-proxy.ts'
import { signInitDataFor } from '../support/init-data.ts'
import { RELAXED_RATE_LIMITS } from '../support/relaxed-limits.ts'

const SEED = Number(process.env.CHAOS_SEED ?? 20_261_123)
/** CHAOS_PACING=browser starts the apps as the browser does: a task per step, the rest after a first paint. */
const PACING =
  process.env.CHAOS_PACING === 'browser'
    ? { yieldTask: () => new Promise<void>((r) => setTimeout(r, 0)), firstScreen: () => new Promise<void>((r) => setTimeout(r, 30)) }
    : {}
const OPERATIONS = 200
const RESTARTS = 5
const SOCKET_CUTS = 20
const USERS = 4
const SALE_ADDRESS = 'EQA_bB0umot8bV5POiscDZ6PemtcTT4vGgucjX5vWks8LYOF'

const dir = mkdtempSync(join(tmpdir(), 'axiom-chaos-'))
const dbPath = join(dir, 'axiom.db')

/** The one place the backend's options are set: every start and restart uses them. */
// Four scripted users making 200 operations in seconds are a script to the rate limiter: relaxed
// limits keep it in the path without throttling the run (tests/server/rate-limits.test.ts has its own).
const serverOptions = (port: number): StartOptions => ({ port, host: '127.0.0.1', dbPath, priceTickMs: 1_000, rateLimits: RELAXED_RATE_LIMITS })

/** The backend, restarted in place: same database file, same port. */
class Backend {
  private current!: RunningServer
  up!: Promise<RunningServer>
  port = 0

  async start(): Promise<RunningServer> {
    this.current = await startServer(serverOptions(this.port))
    this.port = this.current.port
    this.up = Promise.resolve(this.current)
    return this.current
  }

  /**
   * Closes and starts again; calls meanwhile find nobody listening. A restart asked for while one is
   * under way follows it (two at once closed the same server and both listened on its port, and the
   * second failed with EADDRINUSE when two restarts fell a few operations apart).
   */
  restart(): Promise<RunningServer> {
    this.up = this.up.then(async (old) => {
      await old.close()
      this.current = await startServer(serverOptions(this.port))
      return this.current
    })
    return this.up
  }
}

/** A seeded stream of numbers in [0, 1). */
const stream = (seed: number, name: string) => {
  let n = 0
  return () => seededUnit(seed, `${name}:${n++}`)
}

interface Client {
  readonly telegramId: number
  readonly app: AppState
  readonly uc: UseCases
  readonly ports: PortBindings
  readonly storage: MemoryKeyValueStore
  /** The product API straight at the backend, past the proxy: how the final checks read the server. */
  readonly direct: AxiomApi
}

type Kind = 'bond' | 'stake' | 'link' | 'activate' | 'sell' | 'transfer' | 'task' | 'cancelBond'
type Outcome = 'acked' | 'refused' | 'unacked'
interface Op {
  readonly i: number
  readonly user: number
  readonly kind: Kind
  /** The idempotency route of a create, with the key it was sent with. */
  readonly route?: string
  readonly key?: string
  outcome: Outcome
  attempts: number
  /** What each try that failed answered. */
  readonly failures: string[]
  /** The id the acknowledged answer carried. */
  id?: string
  skipped?: boolean
}

const UNANSWERED = new Set(['NetworkError', 'Timeout', 'ServerFailed'])

let backend: Backend
let proxy: ChaosProxy | null = null
const clients: Client[] = []
/** Waits for a step of the teardown at most `ms`, and says which one hung: the suite's wall time stays bounded. */
const bounded = async (what: string, step: () => Promise<unknown> | undefined, ms = 5_000) => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), ms)))
  const outcome = await Promise.race([Promise.resolve(step()).then(() => 'done' as const), late])
  clearTimeout(timer)
  if (outcome === 'late') console.log(`chaos teardown: ${what} did not end within ${ms} ms`)
}
afterAll(async () => {
  for (const c of clients) c.app.stop()
  await bounded('the proxy closing', () => proxy?.close())
  await bounded('the backend closing', async () => (await backend?.up)?.close())
  rmSync(dir, { recursive: true, force: true })
}, 15_000)

const clientFor = async (telegramId: number, origin: string, backendUrl: string): Promise<Client> => {
  const session = new MemorySessionStore()
  const storage = new MemoryKeyValueStore()
  const initData = signInitDataFor({ id: telegramId, first_name: `Chaos ${telegramId}` }, Math.floor(Date.now() / 1000), DEV_BOT_TOKEN)
  const ports: PortBindings = {
    http: new FetchHttpTransport({ origin }),
    sockets: new WsSocketFactory(origin),
    session,
    storage,
    clock: new SystemClock(),
    platform: new FakePlatform(launchData({ initData, userId: String(telegramId) })),
    wallet: new ScriptedWallet(),
    chain: new FakeChainReader(),
    notifier: new RecordingNotifier(),
  }
  const app = await composeApp(ports, { botUsername: 'axiom_bot', communityUrl: 'https://t.me/axiom' }, PACING)
  // The CLI's composition (cli/context.ts): the core's use cases over the same adapters and session.
  const uc = useCases({ ...ports, notifier: ports.notifier!, api: makeHttpAxiomApi({ http: ports.http, session }) })
  const direct = makeHttpAxiomApi({ http: new FetchHttpTransport({ origin: backendUrl }), session })
  return { telegramId, app, uc, ports, storage, direct }
}

const waitFor = async (what: string, ok: () => boolean | Promise<boolean>, timeoutMs: number) => {
  const start = Date.now()
  while (!(await ok())) {
    if (Date.now() - start > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`)
    // The condition is polled; 100 ms is only how often, and the time taken is what this returns.
    await new Promise((r) => setTimeout(r, 100))
  }
  return Date.now() - start
}

describe('chaos', () => {
  it('200 operations through restarts, socket cuts and injected faults: nothing lost or doubled, ledger balanced, clients in step', async () => {
    const began = Date.now()
    backend = new Backend()
    const first = await backend.start()
    proxy = await startChaosProxy({ target: first.url, seed: SEED, errorRate: 0.05, timeoutRate: 0.05 })
    const p = proxy
    console.log(`chaos seed ${SEED} (replay with CHAOS_SEED=${SEED})`)

    // Sign-in and funding happen before the faults begin.
    for (let u = 0; u < USERS; u++) {
      const c = await clientFor(880_001 + u, p.url, first.url)
      clients.push(c)
      expect(await c.app.start('')).toBe('ready')
      await first.admin.setMember(c.telegramId)
      await first.admin.credit(c.telegramId, '400', 'balance_token')
      await first.admin.credit(c.telegramId, '150', 'referral_balance')
      await first.admin.credit(c.telegramId, '60', 'task_balance')
    }
    await waitFor('sockets open', () => clients.every((c) => c.app.socketStatus === 'open'), 10_000)

    const rnd = stream(SEED, 'script')
    const pick = <T>(xs: ReadonlyArray<T>): T => xs[Math.floor(rnd() * xs.length)]!
    const amount = (max: number) => Math.round((1 + rnd() * (max - 1)) * 100) / 100
    const spread = (n: number, name: string) => {
      const r = stream(SEED, name)
      const at = new Set<number>()
      while (at.size < n) at.add(5 + Math.floor(r() * (OPERATIONS - 10)))
      return at
    }
    const restartAt = spread(RESTARTS, 'restarts')
    const cutAt = spread(SOCKET_CUTS, 'cuts')
    const kinds: Array<[Kind, number]> = [
      ['bond', 26],
      ['stake', 14],
      ['link', 12],
      ['activate', 10],
      ['sell', 10],
      ['transfer', 10],
      ['task', 10],
      ['cancelBond', 8],
    ]
    const total = kinds.reduce((s, [, w]) => s + w, 0)
    const kindOf = () => {
      let x = rnd() * total
      for (const [k, w] of kinds) if ((x -= w) < 0) return k
      return 'bond' as Kind
    }

    const ops: Op[] = []
    const bonds: Array<Array<{ id: string; paid: boolean; done: boolean }>> = clients.map(() => [])
    const links: Array<{ code: string; owner: number }> = []
    let restarts = 0
    let cuts = 0
    let paid = 0
    const pending: Array<Promise<unknown>> = []

    /** Runs one call the way a client that did not hear back does: again, with the same key, up to 3 times. */
    const attempt = async <A>(op: Op, effect: () => Effect.Effect<A, { readonly _tag: string }>): Promise<A | null> => {
      let unanswered = false
      for (let n = 1; n <= 3; n++) {
        op.attempts = n
        const r = await Effect.runPromise(Effect.result(effect()))
        if (r._tag === 'Success') {
          op.outcome = 'acked'
          return r.success
        }
        op.failures.push(`${r.failure._tag}${'msg' in r.failure ? ` ${String(r.failure.msg)}` : ''}`)
        if (!UNANSWERED.has(r.failure._tag)) {
          // A refusal after an unanswered try may be the answer to a step that the first try took.
          op.outcome = unanswered && !op.key ? 'unacked' : 'refused'
          return null
        }
        unanswered = true
        // Time is the subject: the client pauses before it retries, as a restarting backend needs.
        await new Promise((r) => setTimeout(r, 150))
      }
      op.outcome = 'unacked'
      return null
    }

    p.setFaults(true)
    for (let i = 0; i < OPERATIONS; i++) {
      if (restartAt.has(i)) {
        restarts++
        pending.push(backend.restart())
      }
      if (cutAt.has(i)) {
        cuts++
        p.cutSockets((path) => path === MAIN_SOCKET_PATH || path === MAIN_SOCKET_PATH.replace(/\/$/, ''))
      }
      const user = Math.floor(rnd() * USERS)
      const c = clients[user]!
      const kind = kindOf()
      const key = `chaos-${SEED}-${i}`
      const route = { bond: 'mint/create', stake: 'staking/create', link: 'farming/create', sell: 'withdraw/create', transfer: 'withdraw/transfer' }[
        kind as string
      ]
      const op: Op = { i, user, kind, outcome: 'refused', attempts: 0, failures: [], ...(route ? { route, key } : {}) }
      ops.push(op)
      switch (kind) {
        case 'bond': {
          // A retry sends the same request again: the arguments are drawn once.
          const [sum, days] = [amount(30), pick([10, 30, 60])]
          const r = await attempt(op, () => c.uc.orderBond(sum, days, { idempotencyKey: key }))
          if (r) {
            op.id = String(r.mint.id)
            const bond = { id: op.id, paid: false, done: false }
            bonds[user]!.push(bond)
            // The TON payment arrives (what the chain watcher reports), most of the time.
            if (rnd() < 0.75) {
              const server = await backend.up
              try {
                await server.markMintPaid(BigInt(op.id))
                bond.paid = true
                paid++
              } catch {}
            }
          }
          break
        }
        case 'stake': {
          const bond = bonds[user]!.find((b) => b.paid && !b.done)
          if (!bond) {
            op.skipped = true
            break
          }
          const r = await attempt(op, () => c.uc.stakeMint(bond.id as never, { idempotencyKey: key }))
          if (r) op.id = String(r.id)
          if (op.outcome !== 'refused' || r) bond.done = true
          break
        }
        case 'cancelBond': {
          const bond = bonds[user]!.find((b) => !b.paid && !b.done)
          if (!bond) {
            op.skipped = true
            break
          }
          await attempt(op, () => c.uc.cancelBond(bond.id as never))
          bond.done = true
          break
        }
        case 'link': {
          const activations = 1 + Math.floor(rnd() * 3)
          const source = pick(['main', 'referral', 'task'] as const)
          const request = { amount: amount(5), days: 10, activations, source, multiUse: activations > 1, forMe: false }
          const r = await attempt(op, () => c.uc.createFarmingLink(request, { idempotencyKey: key }))
          if (r) {
            op.id = String(r.id)
            links.push({ code: r.activation_code, owner: user })
          }
          break
        }
        case 'activate': {
          const theirs = links.filter((l) => l.owner !== user)
          if (!theirs.length) {
            op.skipped = true
            break
          }
          const link = pick(theirs)
          await attempt(op, () => c.uc.checkFarmCode(link.code))
          break
        }
        case 'sell': {
          const fromReferral = rnd() < 0.4
          const request = { amount: amount(20), address: SALE_ADDRESS, fromReferral }
          const r = await attempt(op, () => c.uc.sellTokens(request, { idempotencyKey: key }))
          if (r) op.id = String(r.id)
          break
        }
        case 'transfer': {
          const sum = amount(15)
          await attempt(op, () => c.uc.transferReferralBalance(sum, { idempotencyKey: key }))
          break
        }
        case 'task': {
          const list = await Effect.runPromise(Effect.result(c.uc.loadTasks()))
          const task = list._tag === 'Success' ? list.success.find((t) => t.status !== 'CLAIMED' && Number(t.task_id) !== 3) : undefined
          if (!task) {
            op.skipped = true
            break
          }
          await attempt(op, () => c.uc.advanceTask(task, { link: 'https://t.me/axiom_news' }))
          break
        }
      }
    }
    p.setFaults(false)
    await Promise.all(pending)
    const server = await backend.up
    const lastFault = Date.now()

    // Each client shows what the server holds, within 10 s of the last fault.
    const diffs = async (): Promise<string[]> => {
      const out: string[] = []
      for (const [u, c] of clients.entries()) {
        const [me, mints, stakes] = await Promise.all([
          Effect.runPromise(c.direct.me()),
          Effect.runPromise(c.direct.mints({ limit: 300 })),
          Effect.runPromise(c.direct.stakes({ limit: 300 })),
        ])
        const user = c.app.s.session.user
        for (const f of ['balance_token', 'task_balance', 'referral_balance'] as const)
          if (user?.[f] !== me?.[f]) out.push(`user ${u} ${f}: app ${user?.[f]} server ${me?.[f]}`)
        const now = Math.floor(Date.now() / 1000)
        const view = (xs: ReadonlyArray<{ id: string; status: string }>) =>
          xs
            .map((x) => `${x.id}:${x.status}`)
            .sort()
            .join(' ')
        const serverMints = view(keepNewestPending(mints.items, now))
        const appMints = view(keepNewestPending(c.app.s.bonds.bondList.mints, now))
        if (serverMints !== appMints) out.push(`user ${u} mints: app [${appMints}] server [${serverMints}]`)
        const serverStakes = view(keepNewestPending(stakes.items, now))
        const appStakes = view(keepNewestPending(c.app.s.bonds.stakeList.stakes, now))
        if (serverStakes !== appStakes) out.push(`user ${u} stakes: app [${appStakes}] server [${serverStakes}]`)
      }
      return out
    }
    let lastDiff: string[] = []
    const settled = await waitFor(
      'clients equal to the server',
      async () => (lastDiff = await diffs()).length === 0,
      10_000,
    ).catch(() => null)

    // Every create: acknowledged ones exist once, unacknowledged ones once or not at all, refused ones not at all.
    const db = server.ctx.db
    const userIds: bigint[] = []
    for (const c of clients) userIds.push((await db.one<{ id: bigint }>('SELECT id FROM users WHERE telegram_id = ?', c.telegramId))!.id)
    const stored = (user: number, route: string, key: string) =>
      db.one<{ body: string }>('SELECT body FROM idempotency WHERE user_id = ? AND route = ? AND key = ?', userIds[user], route, key)
    let lost = 0
    let duplicated = 0
    const problems: string[] = []
    for (const op of ops) {
      if (!op.route || !op.key || op.skipped) continue
      const row = await stored(op.user, op.route, op.key)
      if (op.outcome === 'acked') {
        const body = row ? (JSON.parse(row.body) as { id?: unknown; mint?: { id?: unknown } }) : null
        const storedId = body ? String(body.mint?.id ?? body.id ?? '') : null
        if (!row || (op.id !== undefined && storedId !== op.id)) {
          lost++
          problems.push(`op ${op.i} ${op.kind} acknowledged as ${op.id} but stored ${storedId}`)
        }
      } else if (op.outcome === 'refused' && row) {
        duplicated++
        problems.push(`op ${op.i} ${op.kind} refused but applied (${op.failures.join('; ')})`)
      }
    }
    // No create applied twice: per user, the records a create makes = the keys that were applied.
    const count = async (sql: string, user: number) => Number((await db.one<{ n: bigint }>(sql, userIds[user]))!.n)
    const keys = (user: number, route: string) =>
      count(`SELECT COUNT(*) AS n FROM idempotency WHERE user_id = ? AND route = '${route}'`, user)
    for (let u = 0; u < USERS; u++) {
      const pairs: Array<[string, number, number]> = [
        ['mints', await count(`SELECT COUNT(*) AS n FROM mints WHERE user_id = ? AND source = 'ton'`, u), await keys(u, 'mint/create')],
        ['stakes', await count('SELECT COUNT(*) AS n FROM stakes WHERE user_id = ?', u), await keys(u, 'staking/create')],
        ['links', await count('SELECT COUNT(*) AS n FROM farming_links WHERE user_id = ?', u), await keys(u, 'farming/create')],
        ['sales', await count('SELECT COUNT(*) AS n FROM withdrawals WHERE user_id = ?', u), await keys(u, 'withdraw/create')],
        ['transfers', await count(`SELECT COUNT(*) AS n FROM operations WHERE user_id = ? AND type = 'transfer_in'`, u), await keys(u, 'withdraw/transfer')],
        ['task rewards', await count(`SELECT COUNT(*) AS n FROM operations WHERE user_id = ? AND type = 'task_reward'`, u), await count(`SELECT COUNT(*) AS n FROM task_progress WHERE user_id = ? AND status = 'CLAIMED'`, u)],
      ]
      for (const [what, records, applied] of pairs)
        if (records !== applied) {
          duplicated += Math.max(0, records - applied)
          lost += Math.max(0, applied - records)
          problems.push(`user ${u}: ${records} ${what} for ${applied} applied requests`)
        }
      const auto = await count(`SELECT COUNT(*) AS n FROM idempotency WHERE user_id = ? AND key LIKE 'auto:%'`, u)
      if (auto) problems.push(`user ${u}: ${auto} creates went without an Idempotency-Key`)
    }

    // The ledger law (tests/server/conservation.test.ts): credited = balances + locked + reserved + link funds + penalties.
    const l = await server.admin.ledger()
    const ledgerGap = l.credited - (l.balances + l.locked + l.withdrawals + l.linkFunds + l.penalties)
    const perUser = await db.all(
        `SELECT u.balance_token - (SELECT COALESCE(SUM(amount), 0) FROM operations o WHERE o.user_id = u.id AND o.balance = 'balance_token') AS main,
                u.task_balance - (SELECT COALESCE(SUM(amount), 0) FROM operations o WHERE o.user_id = u.id AND o.balance = 'task_balance') AS task,
                u.referral_balance - (SELECT COALESCE(SUM(amount), 0) FROM operations o WHERE o.user_id = u.id AND o.balance = 'referral_balance') AS ref
         FROM users u`,
    )
    const userGaps = perUser.filter((r) => Number(r.main) !== 0 || Number(r.task) !== 0 || Number(r.ref) !== 0).length

    const done = ops.filter((o) => !o.skipped)
    const by = (o: Outcome) => done.filter((x) => x.outcome === o).length
    const byKind = Object.fromEntries(kinds.map(([k]) => [k, done.filter((o) => o.kind === k).length]))
    const balanceDiff = lastDiff.filter((d) => d.includes('balance')).length
    const figures = {
      seed: SEED,
      operations: ops.length,
      'operations run (skipped: nothing to act on)': `${done.length} (${ops.length - done.length} skipped)`,
      'by kind': JSON.stringify(byKind),
      'HTTP calls through the proxy': p.counts.requests,
      'faults: injected 500': p.counts.injected500,
      'faults: answers dropped after the backend acted': p.counts.injectedTimeout,
      'faults: calls that met a restarting backend': p.counts.upstreamDown,
      restarts,
      'socket cuts (sockets dropped)': `${cuts} (${p.counts.socketsCut})`,
      'bonds paid': paid,
      'retries (same key)': done.reduce((s, o) => s + o.attempts - 1, 0),
      acknowledged: by('acked'),
      refused: by('refused'),
      unacknowledged: by('unacked'),
      lost,
      duplicated,
      'ledger gap (nano)': ledgerGap.toString(),
      'users whose balances differ from their operations': userGaps,
      'clients in step with the server after the last fault': settled === null ? `no: ${lastDiff.length} differences` : `${settled} ms`,
      'final balance diff (fields)': balanceDiff,
      'wall time (s)': ((Date.now() - began) / 1000).toFixed(1),
    }
    console.log(`chaos figures\n${Object.entries(figures).map(([k, v]) => `  ${k}: ${v}`).join('\n')}`)
    expect(Date.now() - lastFault).toBeGreaterThanOrEqual(0)

    if (lastDiff.length) console.log(`chaos: clients out of step\n  ${lastDiff.join('\n  ')}`)
    expect(problems).toEqual([])
    expect(lost).toBe(0)
    expect(duplicated).toBe(0)
    expect(ledgerGap).toBe(0n)
    expect(userGaps).toBe(0)
    expect(lastDiff).toEqual([])
    expect(settled).not.toBeNull()
    // The run did meet its faults and did move money, not just refusals.
    expect(restarts).toBe(RESTARTS)
    expect(cuts).toBe(SOCKET_CUTS)
    expect(p.counts.injected500).toBeGreaterThan(0)
    expect(p.counts.injectedTimeout).toBeGreaterThan(0)
    for (const k of ['bond', 'stake', 'link', 'activate', 'sell', 'transfer', 'task'] as const)
      expect(done.some((o) => o.kind === k && o.outcome === 'acked'), `an acknowledged ${k}`).toBe(true)
  }, 120_000)
})
