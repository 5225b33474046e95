/**
 * `npm run test:repeat -- <project or file> <n>`: runs one vitest project (`e2e`) or one test file n
 * times in a row and prints each run's result and the totals: runs passed and failed, and every test
 * that failed, with how often. Exits non-zero if any run failed. A flaky test shows up here as a
 * name with a count below n; a run that crashed before reporting counts as failed.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'

export const PROJECTS = ['unit-and-integration', 'server-postgres', 'e2e'] as const
export type Project = (typeof PROJECTS)[number]

export interface Target {
  readonly project: Project
  readonly file: string | null
  readonly runs: number
}

export const USAGE = 'usage: npm run test:repeat -- <project or test file> <n>  (projects: unit-and-integration, server-postgres, e2e)'

/** The project a file runs in (vitest.config.ts): the browser tests, the PostgreSQL-only suites, or the rest. */
const projectOf = (file: string): Project =>
  /(^|\/)tests\/e2e\//.test(file) ? 'e2e' : /(^|\/)tests\/server-postgres\//.test(file) ? 'server-postgres' : 'unit-and-integration'

/** Reads `<project or file> <n>`; throws with the usage on anything else. */
export const parseArgs = (args: readonly string[], fileExists: (path: string) => boolean = existsSync): Target => {
  const [what, count, ...rest] = args
  if (!what || !count || rest.length > 0) throw new Error(USAGE)
  if (!/^[1-9]\d*$/.test(count)) throw new Error(`n must be a whole number of runs above 0, not '${count}'\n${USAGE}`)
  const runs = Number(count)
  if ((PROJECTS as readonly string[]).includes(what)) return { project: what as Project, file: null, runs }
  if (!/\.test\.tsx?$/.test(what)) throw new Error(`'${what}' is neither a project nor a test file\n${USAGE}`)
  if (!fileExists(what)) throw new Error(`no such test file: ${what}`)
  return { project: projectOf(what), file: what, runs }
}

/** What one run of vitest reported: its test count and the failures, by full name. */
export interface RunResult {
  readonly tests: number
  readonly failed: readonly string[]
}

interface VitestTest {
  readonly fullName: string
  readonly status: string
}

interface VitestJson {
  readonly numTotalTests?: number
  readonly testResults?: ReadonlyArray<{
    readonly name: string
    readonly status: string
    readonly message?: string
    readonly assertionResults?: readonly VitestTest[]
  }>
}

/**
 * The failures in vitest's JSON report: each failed test as `file > full name`, and a file that
 * failed without a failed test (it did not load, or a hook threw) as `file: its message`.
 */
export const readReport = (json: string, root: string): RunResult => {
  const report = JSON.parse(json) as VitestJson
  if (!Array.isArray(report.testResults)) throw new Error('not a vitest JSON report: no testResults')
  const failed: string[] = []
  for (const file of report.testResults) {
    const name = relative(root, file.name)
    const tests = (file.assertionResults ?? []).filter((t: VitestTest) => t.status === 'failed')
    for (const t of tests) failed.push(`${name} > ${t.fullName}`)
    if (file.status === 'failed' && tests.length === 0) failed.push(`${name}: ${(file.message ?? '').split('\n')[0] || 'failed'}`)
  }
  return { tests: report.numTotalTests ?? 0, failed }
}

/** One run's outcome: what vitest reported, or that it crashed before reporting. */
export type Outcome = { readonly ok: boolean; readonly seconds: number } & ({ readonly result: RunResult } | { readonly crash: string })

export const describeRun = (i: number, n: number, o: Outcome): string => {
  const head = `run ${i}/${n}: ${o.ok ? 'pass' : 'FAIL'}`
  const time = `${o.seconds.toFixed(1)} s`
  if ('crash' in o) return `${head}, no report (${o.crash}), ${time}`
  const { tests, failed } = o.result
  const lines = [`${head}, ${tests - failed.length}/${tests} tests passed, ${time}`]
  for (const f of failed) lines.push(`    failed: ${f}`)
  return lines.join('\n')
}

/** The totals: runs passed and failed, then each failed test with the number of runs it failed in. */
export const summarize = (outcomes: readonly Outcome[]): string => {
  const passed = outcomes.filter((o) => o.ok).length
  const counts = new Map<string, number>()
  for (const o of outcomes) {
    const names = 'crash' in o ? [`(no report: ${o.crash})`] : o.result.failed
    for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1)
  }
  const tests = outcomes.reduce((sum, o) => sum + ('result' in o ? o.result.tests : 0), 0)
  const failedTests = outcomes.reduce((sum, o) => sum + ('result' in o ? o.result.failed.length : 0), 0)
  const lines = [
    `runs: ${outcomes.length}, passed ${passed}, failed ${outcomes.length - passed}`,
    `tests run: ${tests}, failed ${failedTests}`,
  ]
  for (const [name, k] of [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) lines.push(`  ${k}× ${name}`)
  return lines.join('\n')
}

const runOnce = (target: Target, reportFile: string): Outcome => {
  const started = performance.now()
  const args = ['vitest', 'run', '--project', target.project, ...(target.file ? [target.file] : [])]
  args.push('--reporter=dot', '--reporter=json', `--outputFile.json=${reportFile}`)
  rmSync(reportFile, { force: true })
  const child = spawnSync('npx', args, { stdio: ['ignore', 'inherit', 'inherit'] })
  const seconds = (performance.now() - started) / 1000
  if (!existsSync(reportFile)) return { ok: false, seconds, crash: child.error?.message ?? `exit ${child.status ?? child.signal}` }
  const result = readReport(readFileSync(reportFile, 'utf8'), process.cwd())
  // A run passes when vitest says so and reported no failure (an unhandled error fails it too).
  return { ok: child.status === 0 && result.failed.length === 0, seconds, result }
}

const main = (): void => {
  let target: Target
  try {
    target = parseArgs(process.argv.slice(2))
  } catch (e) {
    console.error((e as Error).message)
    process.exit(2)
  }
  const dir = mkdtempSync(join(tmpdir(), 'axiom-test-repeat-'))
  const outcomes: Outcome[] = []
  const label = target.file ?? `project ${target.project}`
  console.log(`${label}: ${target.runs} runs, one after another, from ${new Date().toISOString()}`)
  try {
    for (let i = 1; i <= target.runs; i++) {
      const outcome = runOnce(target, join(dir, `run-${i}.json`))
      outcomes.push(outcome)
      console.log(describeRun(i, target.runs, outcome))
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  console.log(`\n${label}, ${new Date().toISOString()}\n${summarize(outcomes)}`)
  process.exit(outcomes.every((o) => o.ok) ? 0 : 1)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main()
