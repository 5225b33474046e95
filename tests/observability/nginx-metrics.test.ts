import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../server/main.ts'
import { DEFAULT_PRODUCTION_METRICS_PORT } from '../../server/observability/metrics-env.ts'
import { nginxUnavailable, SHIPPED_CONF, startShippedNginx, type ShippedNginx } from '../deploy/shipped-nginx.ts'
import { scrape } from './support.ts'

/**
 * The metrics tell balances and volumes: they are for the operator's Prometheus on the private
 * network, never for the public. nginx, the one published service, proxies only the API's port; the
 * metrics listen on a port of their own that no location of deploy/nginx.conf reaches.
 */
const conf = readFileSync(SHIPPED_CONF, 'utf8')
/** The file without its comments. */
const directives = conf
  .split('\n')
  .map((l) => l.replace(/#.*$/, ''))
  .join('\n')

describe('deploy/nginx.conf publishes no metrics', () => {
  it('proxies only to the API upstream, whose servers are the API port, and names no metrics port or path', () => {
    const passes = [...directives.matchAll(/proxy_pass\s+([^;]+);/g)].map((m) => m[1]!.trim())
    expect(passes.length).toBeGreaterThan(0)
    expect(new Set(passes)).toEqual(new Set(['http://axiom_backend']))
    const upstream = /upstream\s+axiom_backend\s*\{([^}]*)\}/.exec(directives)![1]!
    const servers = [...upstream.matchAll(/^\s*server\s+(\S+)/gm)].map((m) => m[1]!)
    expect(servers).toEqual(['api:8787'])
    expect(directives).not.toMatch(/metrics/i)
    expect(directives).not.toContain(String(DEFAULT_PRODUCTION_METRICS_PORT))
    // No other upstream.
    expect([...directives.matchAll(/(?:^|\s)upstream\s+(\S+)\s*\{/g)].map((m) => m[1])).toEqual(['axiom_backend'])
  })
})

const skipped = nginxUnavailable()
if (skipped) console.warn(`nginx-metrics.test.ts: the shipped nginx part SKIPPED: ${skipped}`)

describe.skipIf(skipped !== null)('the shipped nginx in front of a backend with its metrics on', () => {
  let backend: RunningServer
  let nginx: ShippedNginx
  let root: string

  beforeAll(async () => {
    backend = await startServer({ port: 0, host: '127.0.0.1', dbPath: ':memory:', priceTickMs: 60_000, metrics: { port: 0, host: '127.0.0.1' } })
    root = mkdtempSync(join(tmpdir(), 'axiom-nginx-root-'))
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>AXIOM</title>')
    nginx = await startShippedNginx({ backendPort: backend.port, root, front: '127.0.0.1' })
  })
  afterAll(async () => {
    await nginx?.close()
    await backend?.close()
    if (root) rmSync(root, { recursive: true, force: true })
  })

  it('answers no Prometheus text at any path a client may try; the metrics port itself does', async () => {
    const direct = await scrape(backend.metricsUrl!)
    expect(direct.families.size).toBeGreaterThan(10)
    for (const path of ['/metrics', '/api/metrics', '/api/../metrics', '/ready/../metrics', '/%6detrics']) {
      const res = await fetch(`${nginx.url}${path}`)
      const body = await res.text()
      expect(body, path).not.toContain('# TYPE')
      expect(body, path).not.toContain('axiom_')
    }
  })
})
