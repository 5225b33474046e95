import { cpus } from 'node:os'
import { performance } from 'node:perf_hooks'
import autocannon from 'autocannon'
import Fastify from 'fastify'
import WebSocket from 'ws'
import { DEV_BOT_TOKEN, startServer } from '../server/main.ts'
import { buildLaunch } from '../stand-ins/telegram-host/launch.ts'

/**
 * The server budget, from one run over loopback: authenticated GET /api/user/me against a bare
 * Fastify route in the same process, and the fan-out of one price_update to 1000 main sockets.
 */
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5)
const CONNECTIONS = 10
const SOCKETS = 1000
const TICKS = 20

const load = (url: string, headers: Record<string, string> = {}) =>
  autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers })

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
const line = (label: string, value: string, budget: string, pass: boolean) =>
  console.log(`${label.padEnd(44)} ${value.padEnd(22)} ${budget.padEnd(22)} ${pass ? 'PASS' : 'FAIL'}`)

const server = await startServer({ port: 0, dbPath: ':memory:', priceTickMs: 3_600_000, heartbeatMs: 3_600_000, settleEveryMs: 3_600_000 })
const bare = Fastify()
bare.get('/bare', async () => ({ ok: true }))
await bare.listen({ port: 0, host: '127.0.0.1' })
const bareAddress = bare.server.address()
const barePort = typeof bareAddress === 'object' && bareAddress ? bareAddress.port : 0

const register = await fetch(`${server.url}/api/auth/register`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ init_data: buildLaunch({ user: { id: 9_000_001, first_name: 'Bench' } }, DEV_BOT_TOKEN).initData, ref_code: null }),
})
const { token } = (await register.json()) as { token: string }

console.log(`AXIOM server bench: ${new Date().toISOString()}, node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? '?'})`)
console.log(`HTTP: ${CONNECTIONS} connections, ${DURATION_S} s each; fan-out: ${SOCKETS} sockets, ${TICKS} ticks\n`)

const bareRun = await load(`http://127.0.0.1:${barePort}/bare`)
const meRun = await load(`${server.url}/api/user/me`, { authorization: `Bearer ${token}` })
if (meRun.non2xx > 0 || meRun.errors > 0) throw new Error(`/user/me answered ${meRun.non2xx} non-2xx and ${meRun.errors} errors`)

const ratio = meRun.requests.average / bareRun.requests.average
console.log(`${'measure'.padEnd(44)} ${'value'.padEnd(22)} ${'budget'.padEnd(22)} result`)
console.log(`${'bare route throughput'.padEnd(44)} ${`${Math.round(bareRun.requests.average)} req/s`.padEnd(22)} (reference)`)
console.log(`${'bare route p99'.padEnd(44)} ${`${bareRun.latency.p99} ms`.padEnd(22)} (reference)`)
line('GET /api/user/me throughput', `${Math.round(meRun.requests.average)} req/s (${Math.round(ratio * 100)} %)`, '>= 30 % of bare', ratio >= 0.3)
line('GET /api/user/me p99', `${meRun.latency.p99} ms`, '<= 20 ms', meRun.latency.p99 <= 20)

// Fan-out: 1000 authenticated sockets, then ticks driven one at a time.
const sockets: WebSocket[] = []
const arrivals: number[] = []
let waiting = 0
let onAll: (() => void) | null = null
for (let i = 0; i < SOCKETS; i++) {
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/api/ws/`)
  sockets.push(ws)
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => {
      ws.send(token)
      resolve()
    })
    ws.once('error', reject)
  })
}
await new Promise((r) => setTimeout(r, 500))
for (const ws of sockets)
  ws.on('message', (raw) => {
    if (onAll === null || !raw.toString().startsWith('{"event":"price_update"')) return
    arrivals.push(performance.now())
    if (--waiting === 0) onAll()
  })

const perTick: number[] = []
const perClient: number[] = []
for (let i = 0; i < TICKS; i++) {
  arrivals.length = 0
  waiting = SOCKETS
  const done = new Promise<void>((resolve) => (onAll = resolve))
  const t0 = performance.now()
  server.tick()
  await Promise.race([done, new Promise((r) => setTimeout(r, 5_000))])
  onAll = null
  if (waiting > 0) throw new Error(`tick ${i}: ${waiting} sockets got no price_update within 5 s`)
  perTick.push(Math.max(...arrivals) - t0)
  for (const a of arrivals) perClient.push(a - t0)
  await new Promise((r) => setTimeout(r, 50))
}
perTick.sort((a, b) => a - b)
perClient.sort((a, b) => a - b)
const fanP99 = pct(perTick, 99)
console.log(`${'price_update to one socket, p99'.padEnd(44)} ${`${pct(perClient, 99).toFixed(1)} ms`.padEnd(22)} (detail)`)
line(`price_update reaching all ${SOCKETS} sockets, p99`, `${fanP99.toFixed(1)} ms`, '<= 200 ms', fanP99 <= 200)

for (const ws of sockets) ws.terminate()
await bare.close()
await server.close()
