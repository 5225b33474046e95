/**
 * `npm run profile:boot`: where a first visit's main thread goes before the dashboard's balances
 * paint. Builds the app, serves it with the reference backend (as bench:lighthouse does), opens it
 * in Debian's Chromium at 4× CPU slowdown with V8's sampling profiler on, and prints the self time
 * by script and by function, and the long tasks (over 50 ms) the page observed, until a balance
 * shows. A tool for finding work to cut; the budgets are bench:lighthouse's.
 * PROFILE_RUNS (default 1) repeats the visit; PROFILE_AFTER_MS (default 4000) keeps profiling after the
 * balance shows; PROFILE_OUT=file writes the last .cpuprofile. PROFILE_VISIT=repeat profiles a repeat
 * visit instead, as Lighthouse's: the same profile opens the app once unprofiled (its HTTP cache, the
 * kept dashboard and V8's first sight of each script in place), then again.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type RawSourceMap, SourceMapConsumer } from 'source-map-js'
import { launchChromium } from '../tests/support/chromium.ts'
import { rmSync } from 'node:fs'
import { buildApp, launchUrl, seedActiveBonds, startBenchStack } from './bench-ticker.ts'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
  startTime: number
  endTime: number
}

const RUNS = Number(process.env.PROFILE_RUNS ?? 1)
const TOP = Number(process.env.PROFILE_TOP ?? 30)
const AFTER_MS = Number(process.env.PROFILE_AFTER_MS ?? 4000)
/** How many functions each long task lists (PROFILE_TASK_TOP, default 10). */
const TASK_TOP = Number(process.env.PROFILE_TASK_TOP ?? 10)
const REPEAT = process.env.PROFILE_VISIT === 'repeat'
const BALANCE = '[data-testid="balance-main-amount"], .card-balance__amount'

const shortUrl = (url: string) => url.replace(/^https?:\/\/[^/]+/, '') || '(native)'

/** Maps a position in a built chunk to its source module and function, through the build's source maps. */
const sourceMapper = (outDir: string) => {
  const consumers = new Map<string, SourceMapConsumer | null>()
  const consumer = (path: string) => {
    if (!consumers.has(path)) {
      const file = join(outDir, `${path}.map`)
      consumers.set(path, existsSync(file) ? new SourceMapConsumer(JSON.parse(readFileSync(file, 'utf8')) as RawSourceMap) : null)
    }
    return consumers.get(path) ?? null
  }
  return (url: string, line: number, column: number): { module: string; name: string | null } | null => {
    const path = shortUrl(url)
    if (!path.startsWith('/assets/')) return null
    const c = consumer(path)
    if (!c) return null
    const p = c.originalPositionFor({ line: line + 1, column })
    if (!p.source) return null
    const module = p.source.replace(/^(\.\.\/)+/, '').replace(/^.*node_modules\//, 'node_modules/')
    return { module: `${module}:${p.line}`, name: p.name ?? null }
  }
}

const main = async () => {
  // Built with hidden source maps (the page does not name them), so positions map to source modules.
  const outDir = await buildApp({ sourcemap: true })
  const stack = await startBenchStack({ outDir })
  const mapPosition = sourceMapper(stack.outDir)
  const browser = await launchChromium()
  try {
    const user = 7_000_011
    await seedActiveBonds(stack, user, 12)
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 412, height: 823 } })
      if (REPEAT) {
        // The first visit, in a tab of its own: the profiled one opens in a new tab of the same profile.
        const first = await context.newPage()
        await first.goto(launchUrl(stack, user))
        await first.locator(BALANCE).first().waitFor({ state: 'visible', timeout: 60_000 })
        await first.waitForTimeout(2_000)
        await first.close()
      }
      const page = await context.newPage()
      await page.addInitScript(() => {
        const w = window as unknown as { __longTasks: Array<[number, number]> }
        w.__longTasks = []
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.__longTasks.push([Math.round(e.startTime), Math.round(e.duration)])
        }).observe({ type: 'longtask', buffered: true })
      })
      const cdp = await context.newCDPSession(page)
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
      await cdp.send('Profiler.enable')
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 })
      await cdp.send('Profiler.start')
      const t0 = Date.now()
      await page.goto(launchUrl(stack, user))
      await page.locator(BALANCE).first().waitFor({ state: 'visible', timeout: 60_000 })
      const paintedMs = Date.now() - t0
      // What runs after the balances (the chart, the SDK, the wallet widget) counts too.
      await page.waitForTimeout(AFTER_MS)
      // The page's clock at the profile's end, to place the page's long tasks on the profile's clock.
      const pageNow = (await page.evaluate(() => performance.now())) as number
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile }
      const marks = await page.evaluate(() =>
        performance.getEntriesByType('mark').filter((m) => m.name.startsWith('axiom:')).map((m) => `${m.name.slice(6)} ${Math.round(m.startTime)}`),
      )
      const longTasks = (await page.evaluate(() => (window as unknown as { __longTasks: Array<[number, number]> }).__longTasks)) ?? []
      if (process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile))

      const byId = new Map(profile.nodes.map((n) => [n.id, n]))
      const self = new Map<number, number>()
      profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000))
      const byScript = new Map<string, number>()
      const byFunction = new Map<string, number>()
      const byModule = new Map<string, number>()
      let total = 0
      for (const [id, ms] of self) {
        const n = byId.get(id)!
        const f = n.callFrame
        if (f.functionName === '(idle)' || f.functionName === '(program)') continue
        total += ms
        const script = f.url ? shortUrl(f.url) : f.functionName
        byScript.set(script, (byScript.get(script) ?? 0) + ms)
        const mapped = mapPosition(f.url, f.lineNumber, f.columnNumber)
        const key = mapped ? `${f.functionName || '(anonymous)'}  ${mapped.module}` : `${f.functionName || '(anonymous)'}  ${shortUrl(f.url)}:${f.lineNumber + 1}:${f.columnNumber + 1}`
        const module = mapped ? mapped.module.replace(/:\d+$/, '') : script
        byModule.set(module, (byModule.get(module) ?? 0) + ms)
        byFunction.set(key, (byFunction.get(key) ?? 0) + ms)
      }
      // Runs of busy samples between idle ones, roughly the page's tasks: each long one with the
      // modules it spent its time in.
      const busyRuns: Array<{ start: number; ms: number; modules: Map<string, number> }> = []
      let at = profile.startTime
      let current: (typeof busyRuns)[number] | null = null
      profile.samples.forEach((id, i) => {
        const dt = (profile.timeDeltas[i] ?? 0) / 1000
        at += dt * 1000
        const f = byId.get(id)!.callFrame
        if (f.functionName === '(idle)') {
          current = null
          return
        }
        if (!current) busyRuns.push((current = { start: (at - profile.startTime) / 1000, ms: 0, modules: new Map() }))
        current.ms += dt
        const mapped = mapPosition(f.url, f.lineNumber, f.columnNumber)
        const m = mapped ? mapped.module.replace(/:\d+$/, '') : f.url ? shortUrl(f.url) : f.functionName
        current.modules.set(m, (current.modules.get(m) ?? 0) + dt)
      })
      const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n)
      console.log(`run ${run + 1}${REPEAT ? ' (repeat visit)' : ''}: balance visible after ${paintedMs} ms, profiled ${AFTER_MS} ms more (wall clock, 4x CPU, no network throttling); JS self time ${total.toFixed(0)} ms`)
      console.log(`  boot steps (ms): ${marks.join(', ')}`)
      console.log(`  long tasks [start, ms]: ${longTasks.map(([s, d]) => `[${s}, ${d}]`).join(' ')}`)
      // Each long task: the functions it spent its time in, inclusive (outermost first), through
      // the source maps. The page's clock is placed on the profile's by their ends.
      const parentOf = new Map<number, number>()
      for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id)
      const offsetMs = profile.endTime / 1000 - pageNow
      const sampleTimes: number[] = []
      let clock = profile.startTime
      for (const dt of profile.timeDeltas) sampleTimes.push((clock += dt) / 1000 - offsetMs)
      console.log('  long tasks, by function (inclusive ms, app and library frames):')
      for (const [start, duration] of longTasks) {
        const inclusive = new Map<string, number>()
        profile.samples.forEach((id, i) => {
          const t = sampleTimes[i]!
          if (t < start || t > start + duration) return
          const dt = (profile.timeDeltas[i] ?? 0) / 1000
          const seen = new Set<string>()
          for (let cur: number | undefined = id; cur !== undefined; cur = parentOf.get(cur)) {
            const f = byId.get(cur)!.callFrame
            const mapped = mapPosition(f.url, f.lineNumber, f.columnNumber)
            if (!mapped) continue
            const key = `${mapped.name ?? f.functionName ?? '?'} (${mapped.module.replace(/^(node_modules|work\/main)\//, '').replace(/^.*\/([^/]+\/[^/]+)$/, '$1')})`
            if (seen.has(key)) continue
            seen.add(key)
            inclusive.set(key, (inclusive.get(key) ?? 0) + dt)
          }
        })
        console.log(`    [${start}, ${duration}] ${top(inclusive, TASK_TOP).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`)
      }
      console.log('  busy stretches over 40 ms (start ms, length ms: where the time went):')
      for (const r of busyRuns.filter((r) => r.ms > 40))
        console.log(`    [${r.start.toFixed(0)}, ${r.ms.toFixed(0)}] ${top(r.modules, 6).map(([k, v]) => `${k.replace(/^(node_modules|work\/main)\//, '')} ${v.toFixed(0)}`).join(', ')}`)
      console.log('  by script:')
      for (const [k, v] of top(byScript, 15)) console.log(`    ${v.toFixed(1).padStart(8)} ms  ${k}`)
      console.log('  by source module:')
      for (const [k, v] of top(byModule, TOP)) console.log(`    ${v.toFixed(1).padStart(8)} ms  ${k}`)
      console.log('  by function (self):')
      for (const [k, v] of top(byFunction, TOP)) console.log(`    ${v.toFixed(1).padStart(8)} ms  ${k}`)
      await context.close()
    }
  } finally {
    await browser.close()
    await stack.close()
    rmSync(outDir, { recursive: true, force: true })
  }
}

await main()
