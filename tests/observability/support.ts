import { LocalChain } from '../../stand-ins/chain/local-chain.ts'
import { localTreasuryAddress } from '../../stand-ins/chain/dev-keys.ts'
import { NANO } from '../../server/domain/money.ts'
import { startServer, type StartOptions } from '../../server/main.ts'
import { serveV4 } from '../chain/support.ts'
import { startTestServer, type TestServer } from '../server/support.ts'

/**
 * The Prometheus text format (prometheus.io/docs/instrumenting/exposition_formats), read by hand: one
 * sample a line, `name{label="value",…} value`; `# TYPE name kind` names each family.
 */
export interface Scrape {
  readonly text: string
  /** Every sample: `name{a="x",b="y"}` (labels sorted by name) → value. */
  readonly samples: ReadonlyMap<string, number>
  /** The families the text declares (its `# TYPE` lines): name → kind. */
  readonly families: ReadonlyMap<string, string>
}

const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g

const unescape = (v: string) => v.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c))

/** A sample's key as Scrape.samples keeps it. */
export const key = (name: string, labels: Record<string, string> = {}): string => {
  const pairs = Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return pairs.length === 0 ? name : `${name}{${pairs.map(([k, v]) => `${k}="${v}"`).join(',')}}`
}

const number = (v: string): number => (v === '+Inf' ? Infinity : v === '-Inf' ? -Infinity : v === 'NaN' ? NaN : Number(v))

export const parseScrape = (text: string): Scrape => {
  const samples = new Map<string, number>()
  const families = new Map<string, string>()
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    const type = /^# TYPE (\S+) (\S+)$/.exec(line)
    if (type) {
      families.set(type[1]!, type[2]!)
      continue
    }
    if (line.startsWith('#')) continue
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+\d+)?$/.exec(line)
    if (!m) throw new Error(`not a sample line: ${line}`)
    const labels: Record<string, string> = {}
    for (const l of (m[3] ?? '').matchAll(LABEL)) labels[l[1]!] = unescape(l[2]!)
    samples.set(key(m[1]!, labels), number(m[4]!))
  }
  return { text, samples, families }
}

/** GET `url` (a metrics listener's) and parse it. */
export const scrape = async (url: string): Promise<Scrape> => {
  const res = await fetch(url)
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`)
  expectPrometheusText(res.headers.get('content-type'))
  return parseScrape(await res.text())
}

const expectPrometheusText = (type: string | null) => {
  if (!type?.startsWith('text/plain') || !type.includes('version=0.0.4')) throw new Error(`not the Prometheus text format: ${type}`)
}

/** A sample's value, or undefined when the scrape has none. */
export const valueOf = (s: Scrape, name: string, labels: Record<string, string> = {}): number | undefined => s.samples.get(key(name, labels))

/** A sample's value; fails when the scrape has none. */
export const must = (s: Scrape, name: string, labels: Record<string, string> = {}): number => {
  const v = valueOf(s, name, labels)
  if (v === undefined) throw new Error(`no sample ${key(name, labels)} in the scrape`)
  return v
}

/** How much a sample moved from `a` to `b` (an absent sample counts 0). */
export const moved = (a: Scrape, b: Scrape, name: string, labels: Record<string, string> = {}): number =>
  (valueOf(b, name, labels) ?? 0) - (valueOf(a, name, labels) ?? 0)

/** Nanoton as TON, for comparing with a metric (a float there; never on the server). */
export const ton = (nano: bigint): number => Number(nano) / 1e9

/** The family a sample line belongs to: a histogram's _bucket, _sum and _count lines are its own. */
export const familyOf = (sampleName: string, families: ReadonlyMap<string, string>): string => {
  if (families.has(sampleName)) return sampleName
  const base = sampleName.replace(/_(bucket|sum|count|total|created)$/, '')
  return families.has(base) ? base : sampleName
}

/**
 * The metric names `exprs` read that a real scrape of a fresh backend does not hold (Prometheus's
 * own `up` aside): what a dashboard panel or an alert rule would read in vain.
 */
export const namesNotExported = async (exprs: ReadonlyArray<string>): Promise<{ used: Set<string>; unknown: string[] }> => {
  const server = await startServer({ port: 0, dbPath: ':memory:', priceTickMs: 60_000, metrics: { port: 0, host: '127.0.0.1' } })
  try {
    const m = await scrape(server.metricsUrl!)
    const used = new Set(exprs.flatMap((e) => metricNames(e)))
    return { used, unknown: [...used].filter((n) => n !== 'up' && !m.families.has(familyOf(n, m.families))) }
  } finally {
    await server.close()
  }
}

/** PromQL's words that are no metric: operators, modifiers and grouping keywords. */
const KEYWORDS = new Set(['and', 'or', 'unless', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset', 'inf', 'nan'])

/**
 * The metric names a PromQL expression reads: what is left once strings, label matchers, ranges,
 * grouping lists and function calls are set aside.
 */
export const metricNames = (expr: string): string[] => {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
  return [...bare.matchAll(/(?<![a-zA-Z0-9_:.])([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)]
    .filter((m) => m[2] === undefined)
    .map((m) => m[1]!)
    .filter((w) => !KEYWORDS.has(w.toLowerCase()))
}

/** The payout limits the metrics stack runs with, so that every limit's metric is shown. */
export const STACK_LIMITS = {
  maxSaleNano: 500n * NANO,
  maxUserDayNano: 1_000n * NANO,
  maxHourNano: 2_000n * NANO,
  maxLagS: 300,
  treasuryReserveNano: 1n * NANO,
} as const

export interface MetricsStack {
  readonly ts: TestServer
  readonly chain: LocalChain
  /** The backend's metrics listener. */
  readonly metricsUrl: string
  /** The watcher, the payouts and the watcher again (the chain service runs no timer). */
  settle(): Promise<void>
  close(): Promise<void>
}

/**
 * The real backend on a random port with its metrics on another random port, a local chain of its
 * own behind the v4 API, and the backend's chain service on it with no timers (the test drives the
 * passes): the chain's clock is the sandbox's `now`, which the test sets, and the server's clock is
 * the same moment, so a bond paid is in time.
 */
export const startMetricsStack = async (options: StartOptions = {}): Promise<MetricsStack> => {
  const now = Math.floor(Date.now() / 1000)
  const ts = await startTestServer({ treasuryAddress: localTreasuryAddress(), metrics: { port: 0, host: '127.0.0.1' }, payoutLimits: STACK_LIMITS, ...options })
  ts.clock.now = now
  const chain = await LocalChain.create({ devWallets: 3 })
  chain.blockchain.now = now
  const v4 = await serveV4(chain)
  const service = await ts.server.startChain({
    endpoint: v4.url,
    treasury: { version: 'v4r2', keyPair: chain.treasury.keyPair, wallet: chain.treasury.wallet },
    fromStart: true,
    pollMs: 0,
    payoutMs: 0,
  })
  return {
    ts,
    chain,
    metricsUrl: ts.server.metricsUrl!,
    settle: () => service.settle(),
    close: async () => {
      await ts.close()
      await v4.close()
    },
  }
}
