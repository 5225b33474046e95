/**
 * A client outside the server's process: asks `url` (with `token`) over and over, `concurrency`
 * requests at a time with `pauseMs` between each one's answers, and on the parent's "stop" message
 * answers with the slowest and the 99th-percentile answer times it met. bench:scale runs it while
 * the periodic pass works, so a pass that holds the server's event loop shows as a slow answer, as
 * a user meets it, however the server measures itself.
 */
import { performance } from 'node:perf_hooks'

const [url, token, concurrencyArg, pauseArg] = process.argv.slice(2)
if (!url || !token) throw new Error('usage: latency-probe URL TOKEN [CONCURRENCY] [PAUSE_MS]')
const concurrency = Number(concurrencyArg ?? 2)
const pauseMs = Number(pauseArg ?? 10)
const times: number[] = []
let failures = 0
let running = true

const loop = async () => {
  while (running) {
    const t0 = performance.now()
    try {
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } })
      await res.arrayBuffer()
      if (res.status !== 200) failures++
    } catch {
      failures++
    }
    times.push(performance.now() - t0)
    await new Promise((r) => setTimeout(r, pauseMs))
  }
}

const loops = Array.from({ length: concurrency }, loop)
process.send?.({ ready: true })
process.on('message', async (m) => {
  if (m !== 'stop') return
  running = false
  await Promise.all(loops)
  const sorted = [...times].sort((a, b) => a - b)
  process.send?.({ n: sorted.length, failures, maxMs: sorted[sorted.length - 1] ?? 0, p99Ms: sorted[Math.floor(sorted.length * 0.99)] ?? 0 })
  process.exit(0)
})
