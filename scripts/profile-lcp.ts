/**
 * `npm run profile:lcp`: why Lighthouse's LCP is what it is. Lighthouse's mobile LCP is not the
 * time the page took; it is a simulation (Lantern) over the load's dependency graph: every request
 * that ended before the observed LCP, the scripts' first evaluation, the first parse, layout and
 * paint (and every layout, in the pessimistic half), with what each of them waited for, replayed at
 * slow 4G and 4x CPU. The figure is the mean of the optimistic and the pessimistic graph's end.
 *
 * This loads the app as `bench:lighthouse` does (the same stack, a first then a repeat visit in one
 * profile), keeps Lighthouse's artifacts, runs the same simulation and prints, for each view and
 * each graph, its nodes in simulated order and the chain that ends last: the critical path, each
 * step with its simulated start and end. PROFILE_VIEW=first|repeat prints one view only;
 * PROFILE_NODES=all prints every node (default: the critical path and the 25 costliest nodes);
 * PROFILE_KEEP=1 keeps Lighthouse's artifacts (the trace, the devtools log) and prints where;
 * PROFILE_FRONT=tls|preview serves the build as users get it (TLS + HTTP/2, the default) or through
 * `vite preview` (HTTP/1.1), as bench:lighthouse's two fronts.
 *
 * PROFILE_METRIC=tbt explains Lighthouse's Total Blocking Time instead. Its simulation replays each
 * top-level task of the (unthrottled) load at 4x (layout and paint at 2x), and a task counts for what
 * it lasts over 50 ms: a task that ran 13 ms here counts. This prints the simulated TBT, then every
 * task of 10 ms and more as observed, with what ran in it (module evaluation, microtasks, timers,
 * the functions called, style and layout), and the tasks the simulation made long, each with its
 * observed start, so the two lists can be read together.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import lighthouse from 'lighthouse'
// Lighthouse's own modules: the artifacts on disk, its default (mobile) settings and the simulation.
import { loadArtifacts } from 'lighthouse/core/lib/asset-saver.js'
import { defaultSettings } from 'lighthouse/core/config/constants.js'
import { LanternLargestContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js'
import { LanternTotalBlockingTime } from 'lighthouse/core/computed/metrics/lantern-total-blocking-time.js'
import { LanternFirstContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-first-contentful-paint.js'
import { LanternInteractive } from 'lighthouse/core/computed/metrics/lantern-interactive.js'
import { MainThreadTasks } from 'lighthouse/core/computed/main-thread-tasks.js'
import { ProcessedNavigation } from 'lighthouse/core/computed/processed-navigation.js'
import { launchChromeForLighthouse } from './tls-front.ts'
import { type BenchFront, launchUrl, seedActiveBonds, startBenchStack } from './bench-ticker.ts'

type View = 'first' | 'repeat'
const only = process.env.PROFILE_VIEW as View | undefined
const metric = process.env.PROFILE_METRIC === 'tbt' ? 'tbt' : 'lcp'
const allNodes = process.env.PROFILE_NODES === 'all'
const front = (process.env.PROFILE_FRONT ?? 'tls') as BenchFront

interface GraphNode {
  id: string
  type: 'network' | 'cpu'
  startTime: number
  endTime: number
  getDependencies(): GraphNode[]
  request?: { url: string; resourceType?: string; priority?: string; fromDiskCache?: boolean; fromMemoryCache?: boolean; transferSize?: number }
  childEvents?: Array<{ name: string; args?: { data?: { url?: string; functionName?: string; type?: string } } }>
  event?: { dur?: number }
}
interface Timing {
  startTime: number
  endTime: number
  duration: number
}
interface Estimate {
  timeInMs: number
  nodeTimings: Map<GraphNode, Timing>
}

const shortUrl = (url: string) => {
  try {
    const u = new URL(url)
    return `${u.pathname}${u.search}`.replace(/^\/assets\//, '')
  } catch {
    return url
  }
}

/** A node in words: a request (its URL, cache, size) or a main-thread task (what it ran). */
const describe = (node: GraphNode): string => {
  if (node.type === 'network') {
    const r = node.request!
    const cache = r.fromDiskCache ? ' disk-cache' : r.fromMemoryCache ? ' memory-cache' : ''
    return `NET ${r.resourceType ?? ''} ${shortUrl(r.url)}${cache} ${((r.transferSize ?? 0) / 1024).toFixed(1)} KiB ${r.priority ?? ''}`
  }
  const names = new Map<string, number>()
  const what: string[] = []
  for (const e of node.childEvents ?? []) {
    names.set(e.name, (names.get(e.name) ?? 0) + 1)
    const url = e.args?.data?.url
    if ((e.name === 'EvaluateScript' || e.name === 'v8.compileModule' || e.name === 'v8.evaluateModule') && url) what.push(`eval ${shortUrl(url)}`)
    if (e.name === 'TimerFire') what.push('timer')
    if (e.name === 'EventDispatch' && e.args?.data?.type) what.push(`event ${e.args.data.type}`)
    if (e.name === 'FunctionCall' && e.args?.data?.functionName) what.push(`fn ${e.args.data.functionName}`)
  }
  const marks = ['ParseHTML', 'Layout', 'Paint', 'ResourceReceivedData', 'XHRReadyStateChange'].filter((n) => names.has(n))
  const observed = (node.endTime - node.startTime) / 1000
  return `CPU ${observed.toFixed(1)} ms observed [${[...new Set(what)].slice(0, 4).join(', ')}${marks.length ? ` | ${marks.join(' ')}` : ''}]`
}

/** The chain that ends last: from the last node back through the dependency that ended latest. */
const criticalPath = (timings: Map<GraphNode, Timing>): GraphNode[] => {
  let node = [...timings.entries()].sort((a, b) => b[1].endTime - a[1].endTime)[0]?.[0]
  const path: GraphNode[] = []
  while (node) {
    path.unshift(node)
    const deps = node.getDependencies().filter((d) => timings.has(d))
    node = deps.sort((a, b) => timings.get(b)!.endTime - timings.get(a)!.endTime)[0]
  }
  return path
}

/** The observed load's origin (µs, trace clock), so each node also shows when it really ran. */
let origin = 0
const observed = (n: GraphNode) => `[${((n.startTime - origin) / 1000).toFixed(0).padStart(5)}–${((n.endTime - origin) / 1000).toFixed(0).padStart(5)} observed]`

const print = (label: string, estimate: Estimate) => {
  const t = estimate.nodeTimings
  console.log(`\n  ${label}: ${estimate.timeInMs.toFixed(0)} ms simulated, ${t.size} nodes`)
  const line = (n: GraphNode) => {
    const x = t.get(n)!
    return `    ${x.startTime.toFixed(0).padStart(5)} → ${x.endTime.toFixed(0).padStart(5)}  (${x.duration.toFixed(0).padStart(4)} ms) ${observed(n)}  ${describe(n)}`
  }
  if (allNodes) {
    for (const n of [...t.keys()].sort((a, b) => t.get(a)!.startTime - t.get(b)!.startTime)) console.log(line(n))
    return
  }
  console.log('   critical path:')
  for (const n of criticalPath(t)) console.log(line(n))
  console.log('   costliest nodes:')
  for (const n of [...t.keys()].sort((a, b) => t.get(b)!.duration - t.get(a)!.duration).slice(0, 25)) console.log(line(n))
}

/** Lighthouse's computed-artifact inputs for one view, from the artifacts saved in `dir`. */
const lanternInputs = async (dir: string, view: View) => {
  const artifacts = (await loadArtifacts(dir)) as Record<string, unknown> & { GatherContext: unknown }
  const settings = { ...defaultSettings, disableStorageReset: view === 'repeat' }
  const context = { computedCache: new Map(), settings }
  const data = {
    trace: artifacts.Trace,
    devtoolsLog: artifacts.DevtoolsLog,
    gatherContext: artifacts.GatherContext,
    settings,
    simulator: null,
    URL: artifacts.URL,
    SourceMaps: artifacts.SourceMaps ?? [],
  }
  return { data, context }
}

/** A main-thread task of the trace, as Lighthouse's MainThreadTasks gives it. */
interface TraceTask {
  startTime: number
  duration: number
  parent?: TraceTask
  children: TraceTask[]
  attributableURLs: string[]
  event: { name: string; args?: { data?: { functionName?: string; url?: string; type?: string } } }
}

/** Lighthouse's simulated TBT, the observed tasks behind it and the tasks the simulation made long. */
const explainTbt = async (dir: string, view: View) => {
  const { data, context } = await lanternInputs(dir, view)
  const tbt = (await LanternTotalBlockingTime.request(data as never, context as never)) as unknown as {
    timing: number
    optimisticEstimate: Estimate
    pessimisticEstimate: Estimate
  }
  // Lighthouse counts a task's time after FCP and before TTI, less 50 ms; each of its two graphs
  // clips at its own pair (the optimistic graph at the pessimistic FCP), and TBT is their mean.
  const fcp = (await LanternFirstContentfulPaint.request(data as never, context as never)) as unknown as { optimisticEstimate: Estimate; pessimisticEstimate: Estimate }
  const tti = (await LanternInteractive.request(data as never, context as never)) as unknown as { optimisticEstimate: Estimate; pessimisticEstimate: Estimate }
  const windowOf = { optimistic: [fcp.pessimisticEstimate.timeInMs, tti.optimisticEstimate.timeInMs], pessimistic: [fcp.optimisticEstimate.timeInMs, tti.pessimisticEstimate.timeInMs] } as const
  const counted = (t: Timing, [from, to]: readonly number[]) => Math.max(0, Math.min(t.endTime, to!) - Math.max(t.startTime, from!) - 50)
  const navigation = (await ProcessedNavigation.request(data.trace as never, context as never)) as unknown as { timestamps: { timeOrigin: number } }
  origin = navigation.timestamps.timeOrigin
  const tasks = (await MainThreadTasks.request(data.trace as never, context as never)) as unknown as TraceTask[]
  console.log(`\n${view} visit: TBT ${tbt.timing.toFixed(0)} ms (simulated); counted from FCP to TTI: optimistic graph ${windowOf.optimistic.map((v) => v.toFixed(0)).join('–')} ms, pessimistic ${windowOf.pessimistic.map((v) => v.toFixed(0)).join('–')} ms`)
  console.log('  top-level tasks of 10 ms and more, as observed (start ms, length ms, the scripts Lighthouse names, what ran):')
  for (const task of tasks.filter((t) => !t.parent && t.duration >= 10)) {
    const inside: string[] = []
    const walk = (t: TraceTask, depth: number) => {
      for (const c of t.children) {
        const d = c.event.args?.data ?? {}
        if (c.duration >= 2 && depth < 4) inside.push(`${'  '.repeat(depth)}${c.event.name}${d.functionName ? ` ${d.functionName}` : ''}${d.url ? ` ${shortUrl(d.url)}` : ''}${d.type ? ` ${d.type}` : ''} ${c.duration.toFixed(1)}`)
        walk(c, depth + 1)
      }
    }
    walk(task, 1)
    console.log(`    ${task.startTime.toFixed(0).padStart(5)} ${task.duration.toFixed(1).padStart(5)} ms [${task.attributableURLs.map(shortUrl).slice(0, 3).join(', ')}]`)
    for (const line of inside.slice(0, 10)) console.log(`          ${line}`)
  }
  console.log('  tasks the simulation made longer than 50 ms (optimistic graph: simulated start and length, what TBT counts of it in each graph; observed start and length):')
  const long = [...tbt.optimisticEstimate.nodeTimings.entries()].filter(([n, t]) => n.type === 'cpu' && t.duration > 50).sort((a, b) => a[1].startTime - b[1].startTime)
  for (const [n, t] of long) {
    const pessimistic = tbt.pessimisticEstimate.nodeTimings.get(n)
    const counts = `counts ${counted(t, windowOf.optimistic).toFixed(0)} / ${pessimistic ? counted(pessimistic, windowOf.pessimistic).toFixed(0) : '?'} ms`
    console.log(`    ${t.startTime.toFixed(0).padStart(5)} ${t.duration.toFixed(0).padStart(4)} ms  ${counts.padEnd(18)} [observed ${((n.startTime - origin) / 1000).toFixed(0)}, ${((n.endTime - n.startTime) / 1000).toFixed(1)} ms]`)
  }
}

const simulate = async (dir: string, view: View) => {
  const { data, context } = await lanternInputs(dir, view)
  const result = (await LanternLargestContentfulPaint.request(data as never, context as never)) as unknown as {
    timing: number
    optimisticEstimate: Estimate
    pessimisticEstimate: Estimate
  }
  const navigation = (await ProcessedNavigation.request(data.trace as never, context as never)) as unknown as {
    timestamps: { timeOrigin: number }
    timings: { firstContentfulPaint: number; largestContentfulPaint?: number }
  }
  origin = navigation.timestamps.timeOrigin
  const trace = data.trace as { traceEvents: Array<{ name: string; ts: number; cat: string }> }
  const marks = trace.traceEvents
    .filter((e) => e.name.startsWith('axiom:') && e.cat.includes('user_timing'))
    .map((e) => `${e.name.slice(6)} ${((e.ts - origin) / 1000).toFixed(0)}`)
  console.log(`\n${view} visit: LCP ${result.timing.toFixed(0)} ms (simulated; the mean of the two graphs below)`)
  console.log(`  observed (unthrottled): FCP ${navigation.timings.firstContentfulPaint.toFixed(0)} ms, LCP ${navigation.timings.largestContentfulPaint?.toFixed(0)} ms; a request is in the graphs only if it ended before the observed LCP`)
  console.log(`  boot marks (observed ms): ${[...new Set(marks)].join(', ')}`)
  print('optimistic graph', result.optimisticEstimate)
  print('pessimistic graph', result.pessimisticEstimate)
}

const main = async () => {
  const stack = await startBenchStack({ front })
  const dirs: string[] = []
  try {
    const user = 7_000_003
    await seedActiveBonds(stack, user, 12)
    const chrome = await launchChromeForLighthouse()
    try {
      for (const view of ['first', 'repeat'] as const) {
        const dir = mkdtempSync(join(tmpdir(), `axiom-lcp-${view}-`))
        dirs.push(dir)
        await lighthouse(launchUrl(stack, user), { port: chrome.port, logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: view === 'repeat', gatherMode: dir })
        if (!only || only === view) await (metric === 'tbt' ? explainTbt(dir, view) : simulate(dir, view))
      }
    } finally {
      chrome.kill()
    }
  } finally {
    await stack.close()
    if (process.env.PROFILE_KEEP) console.log(`\nLighthouse's artifacts (trace, devtools log) kept in ${dirs.join(', ')}`)
    else for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }
}

await main()
