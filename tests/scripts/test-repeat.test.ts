/**
 * scripts/test-repeat.ts: its arguments, its reading of vitest's JSON report (built here by hand in
 * vitest's shape), its totals, and one real run of the script on a small test file.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { describeRun, type Outcome, parseArgs, readReport, summarize } from '../../scripts/test-repeat.ts'

const ROOT = join(import.meta.dirname, '../..')
const exists = (known: string[]) => (path: string) => known.includes(path)

describe('parseArgs', () => {
  it('takes a project by name, or a file and the project it runs in', () => {
    expect(parseArgs(['e2e', '20'], exists([]))).toEqual({ project: 'e2e', file: null, runs: 20 })
    expect(parseArgs(['unit-and-integration', '1'], exists([]))).toEqual({ project: 'unit-and-integration', file: null, runs: 1 })
    const files = ['tests/e2e/shell.test.ts', 'tests/server-postgres/pool.test.ts', 'tests/ui/format.test.ts']
    expect(parseArgs(['tests/e2e/shell.test.ts', '10'], exists(files))).toEqual({ project: 'e2e', file: 'tests/e2e/shell.test.ts', runs: 10 })
    expect(parseArgs(['tests/server-postgres/pool.test.ts', '3'], exists(files)).project).toBe('server-postgres')
    expect(parseArgs(['tests/ui/format.test.ts', '3'], exists(files)).project).toBe('unit-and-integration')
  })

  it('refuses anything else with a clear message', () => {
    expect(() => parseArgs([], exists([]))).toThrow(/usage: npm run test:repeat/)
    expect(() => parseArgs(['e2e'], exists([]))).toThrow(/usage/)
    expect(() => parseArgs(['e2e', '2', 'x'], exists([]))).toThrow(/usage/)
    for (const n of ['0', '-1', '2.5', 'ten', '07']) expect(() => parseArgs(['e2e', n], exists([]))).toThrow(`n must be a whole number of runs above 0, not '${n}'`)
    expect(() => parseArgs(['e3e', '2'], exists([]))).toThrow("'e3e' is neither a project nor a test file")
    expect(() => parseArgs(['tests/e2e/nope.test.ts', '2'], exists([]))).toThrow('no such test file: tests/e2e/nope.test.ts')
  })
})

describe('readReport', () => {
  const report = (testResults: unknown[], numTotalTests: number) => JSON.stringify({ numTotalTests, success: false, testResults })

  it('names each failed test by file and full name, and a file that failed with no test by its message', () => {
    const json = report(
      [
        {
          name: `${ROOT}/tests/e2e/shell.test.ts`,
          status: 'failed',
          message: '',
          assertionResults: [
            { fullName: 'the community gate blocks a non-member', status: 'failed' },
            { fullName: 'navigation scrolls to the top', status: 'passed' },
          ],
        },
        { name: `${ROOT}/tests/e2e/money.test.ts`, status: 'failed', message: 'Hook timed out in 180000ms\nstack', assertionResults: [] },
        { name: `${ROOT}/tests/e2e/share.test.ts`, status: 'passed', message: '', assertionResults: [{ fullName: 'shares', status: 'passed' }] },
      ],
      3,
    )
    expect(readReport(json, ROOT)).toEqual({
      tests: 3,
      failed: ['tests/e2e/shell.test.ts > the community gate blocks a non-member', 'tests/e2e/money.test.ts: Hook timed out in 180000ms'],
    })
  })

  it('a clean report has no failures; a file that is not a report is an error', () => {
    const json = report([{ name: `${ROOT}/tests/a.test.ts`, status: 'passed', assertionResults: [{ fullName: 'a', status: 'passed' }] }], 1)
    expect(readReport(json, ROOT)).toEqual({ tests: 1, failed: [] })
    expect(() => readReport('{"numTotalTests": 3}', ROOT)).toThrow('not a vitest JSON report')
  })
})

describe('the totals', () => {
  const pass: Outcome = { ok: true, seconds: 80, result: { tests: 14, failed: [] } }
  const gate = 'tests/e2e/shell.test.ts > the community gate blocks a non-member'
  const fail: Outcome = { ok: false, seconds: 95.25, result: { tests: 14, failed: [gate] } }
  const crash: Outcome = { ok: false, seconds: 3, crash: 'exit 1' }

  it('counts runs passed and failed, and each failed test with the runs it failed in, most often first', () => {
    const other = 'tests/e2e/money.test.ts > pays'
    const twice: Outcome = { ok: false, seconds: 90, result: { tests: 14, failed: [other, gate] } }
    expect(summarize([pass, fail, pass, twice, crash]).split('\n')).toEqual([
      'runs: 5, passed 2, failed 3',
      'tests run: 56, failed 3',
      `  2× ${gate}`,
      '  1× (no report: exit 1)',
      `  1× ${other}`,
    ])
    expect(summarize([pass, pass])).toBe('runs: 2, passed 2, failed 0\ntests run: 28, failed 0')
  })

  it('prints each run on its own lines', () => {
    expect(describeRun(1, 10, pass)).toBe('run 1/10: pass, 14/14 tests passed, 80.0 s')
    expect(describeRun(2, 10, fail)).toBe(`run 2/10: FAIL, 13/14 tests passed, 95.3 s\n    failed: ${gate}`)
    expect(describeRun(3, 10, crash)).toBe('run 3/10: FAIL, no report (exit 1), 3.0 s')
  })
})

describe('the script', () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'scripts/test-repeat.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 })

  it('reruns a file n times and prints the totals; exits 0 when every run passed', () => {
    const r = run('tests/ui/format.test.ts', '2')
    expect(r.stdout).toMatch(/run 1\/2: pass, (\d+)\/\1 tests passed/)
    expect(r.stdout).toMatch(/run 2\/2: pass/)
    expect(r.stdout).toContain('runs: 2, passed 2, failed 0')
    expect(r.status).toBe(0)
  }, 120_000)

  it('exits 2 with the usage on bad arguments', () => {
    const r = run('e2e', 'many')
    expect(r.stderr).toContain("n must be a whole number of runs above 0, not 'many'")
    expect(r.status).toBe(2)
  })
})
