import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { namesNotExported } from '../observability/support.ts'

/**
 * deploy/prometheus/alerts.yml checked and unit-tested by Debian's promtool (package prometheus;
 * `npm test` installs it, scripts/ensure-installed.mjs): the rules load, every case of
 * alerts.test.yml passes, every alert has a case where it fires and one where it stays silent, and
 * every metric a rule reads is one the backend exports (read from a real scrape).
 */
const PROMTOOL = process.env.PROMTOOL_PATH ?? '/usr/bin/promtool'
const dir = fileURLToPath(new URL('../../deploy/prometheus/', import.meta.url))
const rulesFile = `${dir}alerts.yml`
const testsFile = `${dir}alerts.test.yml`
const rules = readFileSync(rulesFile, 'utf8')
const cases = readFileSync(testsFile, 'utf8')

const skipped = existsSync(PROMTOOL) ? null : `no promtool at ${PROMTOOL} (apt-get install -y --no-install-recommends prometheus, or set PROMTOOL_PATH)`
if (skipped) console.warn(`prometheus-alerts.test.ts: promtool's part SKIPPED: ${skipped}`)

const promtool = (...args: string[]) => spawnSync(PROMTOOL, args, { cwd: dir, encoding: 'utf8', timeout: 60_000 })

/** The alerts the rules file defines, with their expressions (a rule's `expr:` is one line). */
const alerts = (): Array<{ name: string; expr: string }> =>
  [...rules.matchAll(/- alert: (\S+)\n\s+expr: (.+)\n/g)].map((m) => ({ name: m[1]!, expr: m[2]! }))

/** Per alert, whether alerts.test.yml expects it firing somewhere, and silent somewhere. */
const expectations = (): Map<string, { fires: boolean; silent: boolean }> => {
  const seen = new Map<string, { fires: boolean; silent: boolean }>()
  for (const m of cases.matchAll(/alertname: (\S+)\n\s+exp_alerts:( \[\])?\n/g)) {
    const e = seen.get(m[1]!) ?? { fires: false, silent: false }
    if (m[2]) e.silent = true
    else e.fires = true
    seen.set(m[1]!, e)
  }
  return seen
}

describe('deploy/prometheus/prometheus.yml', () => {
  it('scrapes the api and worker services on the metrics port, and loads alerts.yml', () => {
    const config = readFileSync(`${dir}prometheus.yml`, 'utf8')
    expect(config).toMatch(/job_name: axiom\n/)
    expect(config).toMatch(/names: \[api, worker\]\n\s+type: A\n\s+port: 9464\n/)
    expect(config).toMatch(/rule_files:\n\s+- alerts.yml\n/)
  })
})

describe('deploy/prometheus/alerts.yml', () => {
  it('defines the alerts the operator needs, each with a severity, a summary and what to do', () => {
    const names = alerts().map((a) => a.name)
    for (const needed of [
      'AxiomWatcherLagging',
      'AxiomPayoutFailed',
      'AxiomSaleHeld',
      'AxiomPaymentHeld',
      'AxiomTreasuryBelowReserve',
      'AxiomOutflowNearHourLimit',
      'AxiomPriceStale',
      'AxiomPriceExpired',
      'AxiomOutboxGrowing',
      'AxiomHigh5xxRate',
      'AxiomInstanceDown',
    ])
      expect(names).toContain(needed)
    expect(new Set(names).size).toBe(names.length)
    const blocks = rules.split(/\n(?= +- alert: )/).slice(1)
    expect(blocks).toHaveLength(names.length)
    for (const b of blocks) {
      expect(b, b).toMatch(/severity: (critical|warning)\n/)
      expect(b, b).toMatch(/summary: /)
      expect(b, b).toMatch(/description: /)
    }
  })

  it('has, for every alert, a unit test where it fires and one where it stays silent', () => {
    const seen = expectations()
    for (const { name } of alerts()) expect(seen.get(name), name).toEqual({ fires: true, silent: true })
    // No case for an alert the rules do not define.
    expect([...seen.keys()].filter((n) => !alerts().some((a) => a.name === n))).toEqual([])
  })

  describe.skipIf(skipped !== null)('with promtool', () => {
    it('promtool check rules: the rules load', () => {
      const r = promtool('check', 'rules', 'alerts.yml')
      expect(r.stdout + r.stderr).toContain(`SUCCESS: ${alerts().length} rules found`)
      expect(r.status).toBe(0)
    })

    it('promtool check config: the compose Prometheus\'s configuration loads, with the rules', () => {
      const r = promtool('check', 'config', 'prometheus.yml')
      expect(r.stdout + r.stderr).toContain('SUCCESS: prometheus.yml is valid prometheus config file syntax')
      expect(r.stdout + r.stderr).toContain(`SUCCESS: ${alerts().length} rules found`)
      expect(r.status).toBe(0)
    })

    it('promtool test rules: every case of alerts.test.yml passes', () => {
      const r = promtool('test', 'rules', 'alerts.test.yml')
      expect(r.stdout + r.stderr).toMatch(/SUCCESS/)
      expect(r.stdout + r.stderr).not.toMatch(/FAILED/)
      expect(r.status).toBe(0)
    }, 60_000)
  })

  it('every metric a rule reads is one the backend exports (a real scrape), and Prometheus\'s own up', async () => {
    const { used, unknown } = await namesNotExported(alerts().map((a) => a.expr))
    expect(used.size).toBeGreaterThan(15)
    expect(unknown).toEqual([])
  }, 60_000)
})
