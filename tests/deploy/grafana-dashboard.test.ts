import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { metricNames, namesNotExported } from '../observability/support.ts'

/**
 * deploy/grafana: the AXIOM dashboard (money flow, the watcher's lag, errors, latency) and its
 * provisioning. The JSON parses, every query goes to the provisioned Prometheus, and every metric a
 * query reads is one the backend exports (the families of a real scrape) or one Prometheus makes (up).
 */
const read = (path: string) => readFileSync(new URL(`../../deploy/grafana/${path}`, import.meta.url), 'utf8')
const dashboard = JSON.parse(read('dashboards/axiom.json')) as {
  uid: string
  title: string
  panels: Array<{
    id: number
    type: string
    title: string
    gridPos: { h: number; w: number; x: number; y: number }
    datasource?: { type: string; uid: string }
    targets?: Array<{ refId: string; expr: string; datasource: { type: string; uid: string } }>
  }>
}
const datasources = read('provisioning/datasources/prometheus.yml')
const provider = read('provisioning/dashboards/axiom.yml')

const queries = () => dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, ...t })))

describe('the Grafana dashboard', () => {
  it('parses, and has the panels an operator watches: money in and out, the watcher, errors, latency', () => {
    expect(dashboard.uid).toBe('axiom-overview')
    const titles = dashboard.panels.map((p) => p.title)
    for (const t of ['Money in (GRAM an hour)', 'Money out (GRAM an hour)', "Watcher's lag", 'Treasury balance', '5xx share', 'Latency', 'Outbox', 'Periodic pass'])
      expect(titles).toContain(t)
    const ids = dashboard.panels.map((p) => p.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const p of dashboard.panels) {
      expect(p.gridPos.x + p.gridPos.w, p.title).toBeLessThanOrEqual(24)
      if (p.type !== 'row') expect(p.targets?.length, p.title).toBeGreaterThan(0)
    }
  })

  it('sends every query to the provisioned Prometheus, and is loaded from where compose mounts it', () => {
    const uid = /^\s+uid: (\S+)$/m.exec(datasources)![1]
    expect(/^\s+url: (\S+)$/m.exec(datasources)![1]).toBe('http://prometheus:9090')
    for (const q of queries()) expect(q.datasource, q.panel).toEqual({ type: 'prometheus', uid })
    for (const p of dashboard.panels.filter((p) => p.type !== 'row')) expect(p.datasource, p.title).toEqual({ type: 'prometheus', uid })
    expect(/^\s+path: (\S+)$/m.exec(provider)![1]).toBe('/etc/grafana/dashboards')
  })

  it('reads metric names the way PromQL has them', () => {
    expect(metricNames('sum by (status) (rate(axiom_http_request_duration_seconds_count{status=~"5.."}[5m])) / sum(rate(x_total[5m]))')).toEqual([
      'axiom_http_request_duration_seconds_count',
      'x_total',
    ])
    expect(metricNames('topk(10, histogram_quantile(0.95, sum by (le, route) (rate(b_bucket[5m]))))')).toEqual(['b_bucket'])
    expect(metricNames('max(a) > 0.8 * max(c{limit="hour"}) and max(a) < max(c)')).toEqual(['a', 'c', 'a', 'c'])
    expect(metricNames('up{job="axiom"} == 0')).toEqual(['up'])
  })

  describe('docker-compose.yml runs Prometheus and Grafana with these files', () => {
    const compose = readFileSync(new URL('../../docker-compose.yml', import.meta.url), 'utf8')
    /** A service's block: its lines at two spaces and deeper, up to the next service or section. */
    const service = (name: string): string => {
      const m = new RegExp(`\\n  ${name}:\\n((?:(?: {4}.*)?\\n)+)`).exec(compose)
      if (!m) throw new Error(`no service ${name} in docker-compose.yml`)
      return m[1]!
    }

    it('pins both images by version and digest, publishes no port, and mounts the configuration read-only', () => {
      const prometheus = service('prometheus')
      const grafana = service('grafana')
      expect(prometheus).toMatch(/\n? {4}image: prom\/prometheus:v\d+\.\d+\.\d+@sha256:[0-9a-f]{64}\n/)
      expect(grafana).toMatch(/\n? {4}image: grafana\/grafana:\d+\.\d+\.\d+@sha256:[0-9a-f]{64}\n/)
      for (const s of [prometheus, grafana]) expect(s).not.toMatch(/^ {4}ports:/m)
      expect(prometheus).toContain('- ./deploy/prometheus:/etc/prometheus:ro\n')
      expect(prometheus).toContain('--config.file=/etc/prometheus/prometheus.yml')
      expect(grafana).toContain('- ./deploy/grafana/provisioning:/etc/grafana/provisioning:ro\n')
      // Where the dashboards' provider reads them.
      expect(grafana).toContain(`- ./deploy/grafana/dashboards:${/^\s+path: (\S+)$/m.exec(provider)![1]}:ro\n`)
    })

    it('asks for an admin password and lets no one in without one', () => {
      const grafana = service('grafana')
      expect(grafana).toMatch(/GF_SECURITY_ADMIN_PASSWORD: \$\{GRAFANA_ADMIN_PASSWORD:\?/)
      expect(grafana).toContain('GF_AUTH_ANONYMOUS_ENABLED: "false"')
      expect(grafana).toContain('GF_USERS_ALLOW_SIGN_UP: "false"')
    })
  })

  it('every metric a query reads is one the backend exports (a real scrape), and Prometheus\'s own up', async () => {
    const { used, unknown } = await namesNotExported(queries().map((q) => q.expr))
    expect(used.size).toBeGreaterThan(20)
    expect(unknown).toEqual([])
  }, 60_000)
})
