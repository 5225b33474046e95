/**
 * `npm run bench:confirm`: how soon a user learns of a payment on a chain with mainnet's cadence
 * since Catchain 2.0 (a block every 400 ms). The reference backend and the local TON stack with a
 * clocked chain (AXIOM_TON_BLOCK_MS's mode, as `npm start` runs it), the watcher's poll and the
 * payouts at their live default (every 2 s), run twice:
 *   - stream: the watcher listens to the local Streaming API v2 (as with AXIOM_TON_STREAM);
 *   - poll: no stream, the poll only (as without AXIOM_TON_STREAM).
 * Each run: BENCH_PURCHASES bonds (default 50) bought one after the other, each timed from the
 * wallet's send (the chain accepting its message) to the user's socket saying `chain:payment` seen
 * ("Payment seen") and `user:mint` active ("New Bond created"); then BENCH_SALES sales (default 10),
 * each from its request (POST /withdraw/create) to its payout confirmed on the chain (paid).
 * Budgets (stream run): payment seen p95 ≤ 0.5 s, New Bond created p95 ≤ 1.5 s, sale paid p95 ≤ 3 s.
 * Exits 1 when a budget is missed. Figures in docs/benchmarks.md ("Confirmation on 400 ms blocks").
 */
import { WebSocket } from 'ws'
import { DEV_BOT_TOKEN, startServer } from '../server/main.ts'
import { commentCell } from '../stand-ins/chain/local-chain.ts'
import { attachLocalTon, localTreasuryAddress } from '../stand-ins/local-ton.ts'
import { signInitDataFor } from '../tests/support/init-data.ts'
import { benchApi } from './bench-api.ts'

const PURCHASES = Number(process.env.BENCH_PURCHASES ?? 50)
const SALES = Number(process.env.BENCH_SALES ?? 10)
const BLOCK_MS = Number(process.env.BENCH_BLOCK_MS ?? 400)
/** The live defaults of the watcher's poll and the payouts' pass (server/chain/chain-service.ts). */
const POLL_MS = 2000
const PAYOUT_MS = 2000
const BUDGET = { seenP95: 500, createdP95: 1500, salePaidP95: 3000 }

const quantile = (xs: number[], q: number): number => {
  if (xs.length === 0) return NaN
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!
}
const fmt = (ms: number) => (Number.isNaN(ms) ? '—' : `${(ms / 1000).toFixed(3)} s`)

interface RunResult {
  readonly seen: number[]
  readonly created: number[]
  readonly salePaid: number[]
}

const run = async (stream: boolean): Promise<RunResult> => {
  const server = await startServer({ port: 0, dbPath: ':memory:', treasuryAddress: localTreasuryAddress(), rateLimits: null })
  const ton = await attachLocalTon(server, { port: 0, blockIntervalMs: BLOCK_MS, stream, watchIntervalMs: POLL_MS, payoutIntervalMs: PAYOUT_MS, devWallets: 3 })
  const api = benchApi(server.url)
  const telegramId = stream ? 88001 : 88002
  const token = (await api('/auth/register', null, { init_data: signInitDataFor({ id: telegramId }, Math.floor(Date.now() / 1000), DEV_BOT_TOKEN) })).token as string
  await server.admin.credit(telegramId, '100000')

  // The user's main socket: when each event about a bond or a sale first arrives.
  const at = new Map<string, number>()
  const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/api/ws/`)
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  ws.on('message', (raw) => {
    const t = performance.now()
    const e = JSON.parse(raw.toString()) as { event: string; data: any }
    const key =
      e.event === 'chain:payment' ? `${e.data.kind}:${e.data.id}:${e.data.state}` : e.event === 'user:mint' && e.data.status === 'active' ? `bond:${e.data.id}:active` : null
    if (key && !at.has(key)) at.set(key, t)
  })
  ws.send(token)
  const waitFor = async (key: string, timeoutMs = 30_000) => {
    const until = performance.now() + timeoutMs
    while (!at.has(key)) {
      if (performance.now() > until) throw new Error(`no ${key} within ${timeoutMs / 1000} s`)
      await new Promise((r) => setTimeout(r, 5))
    }
    return at.get(key)!
  }

  const result: RunResult = { seen: [], created: [], salePaid: [] }
  try {
    for (let i = 0; i < PURCHASES; i++) {
      const b = await api('/mint/create', token, { amount: 20 + i, days: 30 })
      const id = Number(b.mint.id)
      const key = ton.chain.devWallet(i % 3)
      const ext = await ton.chain.withKey(key, () =>
        ton.chain.signedTransfer(key, [{ to: ton.chain.treasury.wallet.address, value: BigInt(b.payment.amount_nano), body: commentCell(b.payment.comment), bounce: true }]),
      )
      // The wallet's send: the chain accepts its message (a node answering the wallet's broadcast).
      const sent = performance.now()
      const accepted = await ton.chain.accept(ext)
      const created = await waitFor(`bond:${id}:active`)
      result.created.push(created - sent)
      if (at.has(`bond:${id}:seen`)) result.seen.push(at.get(`bond:${id}:seen`)! - sent)
      // The next purchase by this wallet needs this one's seqno used.
      await accepted.included
    }
    const address = ton.chain.devWallet(1).friendly
    for (let i = 0; i < SALES; i++) {
      const t0 = performance.now()
      const w = await api('/withdraw/create', token, { token_amount: String(2 + i), address })
      const id = BigInt(w.id)
      for (;;) {
        const row = (await ton.service.outgoing()).find((r) => r.withdrawalId === id)
        if (row?.state === 'paid') break
        if (performance.now() - t0 > 30_000) throw new Error(`sale ${id} not paid within 30 s`)
        await new Promise((r) => setTimeout(r, 10))
      }
      result.salePaid.push(performance.now() - t0)
    }
  } finally {
    ws.close()
    await ton.service.stop()
    await ton.close()
    await server.close()
  }
  return result
}

const main = async () => {
  const load = (await import('node:os')).loadavg()
  console.log(`bench:confirm — ${PURCHASES} purchases and ${SALES} sales, a block every ${BLOCK_MS} ms, poll and payouts every ${POLL_MS} ms; load average ${load.map((l) => l.toFixed(2)).join(' ')}`)
  const withStream = await run(true)
  const pollOnly = await run(false)
  const line = (what: string, xs: number[]) => `${what.padEnd(28)} p50 ${fmt(quantile(xs, 0.5)).padStart(8)}  p95 ${fmt(quantile(xs, 0.95)).padStart(8)}  max ${fmt(xs.length ? Math.max(...xs) : NaN).padStart(8)}  (n=${xs.length})`
  for (const [name, r] of [
    ['stream (AXIOM_TON_STREAM)', withStream],
    ['poll only', pollOnly],
  ] as const) {
    console.log(`\n${name}`)
    console.log(line('send → payment seen', r.seen))
    console.log(line('send → New Bond created', r.created))
    console.log(line('sale request → paid', r.salePaid))
  }
  const ratio = (q: number, f: (r: RunResult) => number[]) => (quantile(f(pollOnly), q) / quantile(f(withStream), q)).toFixed(2)
  console.log(`\npoll only ÷ stream: New Bond created p50 ${ratio(0.5, (r) => r.created)}x, p95 ${ratio(0.95, (r) => r.created)}x; sale paid p50 ${ratio(0.5, (r) => r.salePaid)}x, p95 ${ratio(0.95, (r) => r.salePaid)}x`)
  const misses: string[] = []
  if (!(quantile(withStream.seen, 0.95) <= BUDGET.seenP95) || withStream.seen.length < PURCHASES) misses.push(`payment seen p95 ${fmt(quantile(withStream.seen, 0.95))} (budget ${fmt(BUDGET.seenP95)}, seen ${withStream.seen.length}/${PURCHASES})`)
  if (!(quantile(withStream.created, 0.95) <= BUDGET.createdP95)) misses.push(`New Bond created p95 ${fmt(quantile(withStream.created, 0.95))} (budget ${fmt(BUDGET.createdP95)})`)
  if (!(quantile(withStream.salePaid, 0.95) <= BUDGET.salePaidP95)) misses.push(`sale paid p95 ${fmt(quantile(withStream.salePaid, 0.95))} (budget ${fmt(BUDGET.salePaidP95)})`)
  console.log(misses.length === 0 ? '\nwithin budget (stream run)' : `\nOVER BUDGET: ${misses.join('; ')}`)
  process.exit(misses.length === 0 ? 0 : 1)
}

await main()
