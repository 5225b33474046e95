/**
 * `npm run compare:lighthouse -- <git ref>`: Lighthouse's first and repeat visits of two builds, the
 * given commit's and the working tree's, in alternating rounds on the same host, and each one's
 * medians. This host's CPU (Lighthouse's `benchmarkIndex`) moves between about 900 and 2 300 within
 * minutes, and Lighthouse's simulated TBT is the observed tasks times four, so two bench:lighthouse
 * runs minutes apart differ by more than most changes do. Alternating the builds round by round
 * spreads the host's swings over both. A tool for telling whether a change helped; the budgets are
 * bench:lighthouse's.
 *
 * The commit is checked out in a temporary git worktree (with this checkout's node_modules) and built
 * there; both builds are served as bench:lighthouse's `tls` front serves them (TLS, HTTP/2, the
 * reference backend in-process, a user with 12 active bonds). CMP_ROUNDS (default 5) sets the rounds;
 * each round is a fresh browser per build, a first visit then a repeat visit.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import lighthouse from 'lighthouse'
import { launchChromeForLighthouse } from './tls-front.ts'
import { type BenchStack, buildApp, launchUrl, seedActiveBonds, startBenchStack } from './bench-ticker.ts'

const ref = process.argv[2]
if (!ref) {
  console.error('usage: npm run compare:lighthouse -- <git ref>   (the working tree is compared with that commit)')
  process.exit(2)
}
const ROUNDS = Number(process.env.CMP_ROUNDS ?? 5)
const USER = 7_000_003
const root = resolve(import.meta.dirname, '..')

/** The commit's build: a worktree of it, this checkout's node_modules, vite run there. */
const buildCommit = async (commit: string): Promise<string> => {
  const tree = mkdtempSync(join(tmpdir(), 'axiom-compare-'))
  execFileSync('git', ['worktree', 'add', '--detach', '--force', tree, commit], { cwd: root, stdio: 'ignore' })
  try {
    symlinkSync(join(root, 'node_modules'), join(tree, 'node_modules'))
    const cwd = process.cwd()
    process.chdir(tree)
    try {
      return await buildApp()
    } finally {
      process.chdir(cwd)
    }
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: root, stdio: 'ignore' })
  }
}

type Build = 'base' | 'tree'
type View = 'first' | 'repeat'
interface Row {
  readonly score: number
  readonly tbt: number
  readonly lcp: number
  readonly host: number
}

const measure = async (stack: BenchStack, port: number, view: View): Promise<Row> => {
  const result = await lighthouse(launchUrl(stack, USER), { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: view === 'repeat' })
  if (!result) throw new Error('lighthouse returned nothing')
  const { lhr } = result
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    tbt: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
    lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
    host: lhr.environment.benchmarkIndex,
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

const main = async () => {
  const commit = execFileSync('git', ['rev-parse', '--short', ref], { cwd: root, encoding: 'utf8' }).trim()
  const dirs: Record<Build, string> = { base: await buildCommit(commit), tree: await buildApp() }
  const stacks: Partial<Record<Build, BenchStack>> = {}
  const rows: Record<Build, Record<View, Row[]>> = { base: { first: [], repeat: [] }, tree: { first: [], repeat: [] } }
  const label: Record<Build, string> = { base: commit, tree: 'working tree' }
  try {
    for (const b of ['base', 'tree'] as const) {
      stacks[b] = await startBenchStack({ outDir: dirs[b], front: 'tls' })
      await seedActiveBonds(stacks[b], USER, 12)
    }
    for (let round = 1; round <= ROUNDS; round++) {
      // The order alternates, so neither build always runs on a browser's or the host's fresher side.
      for (const b of round % 2 ? (['base', 'tree'] as const) : (['tree', 'base'] as const)) {
        const chrome = await launchChromeForLighthouse()
        try {
          for (const view of ['first', 'repeat'] as const) {
            const r = await measure(stacks[b]!, chrome.port, view)
            rows[b][view].push(r)
            console.log(`  round ${round}, ${label[b].padEnd(12)} ${view.padEnd(6)}: score ${r.score}, TBT ${r.tbt.toFixed(0)} ms, LCP ${r.lcp.toFixed(0)} ms, host CPU ${r.host.toFixed(0)}`)
          }
        } finally {
          chrome.kill()
        }
      }
    }
  } finally {
    for (const s of Object.values(stacks)) await s.close()
    for (const d of Object.values(dirs)) rmSync(d, { recursive: true, force: true })
  }
  console.log(`\ncompare:lighthouse — ${commit} against the working tree, ${ROUNDS} alternating rounds (medians; mobile profile, simulated slow 4G, 4x CPU, TLS + HTTP/2)`)
  for (const view of ['first', 'repeat'] as const) {
    for (const b of ['base', 'tree'] as const) {
      const rs = rows[b][view]
      console.log(
        `  ${view.padEnd(6)} ${label[b].padEnd(12)} score ${median(rs.map((r) => r.score))} (${rs.map((r) => r.score).join(', ')}), TBT ${median(rs.map((r) => r.tbt)).toFixed(0)} ms, LCP ${median(rs.map((r) => r.lcp)).toFixed(0)} ms, host CPU ${median(rs.map((r) => r.host)).toFixed(0)}`,
      )
    }
  }
}

await main()
