import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** Where the metrics listener binds: AXIOM_METRICS_PORT, AXIOM_METRICS_HOST (server/observability/metrics-env.ts). */
export interface MetricsAddress {
  /** 0 picks a free port (the tests). */
  readonly port: number
  readonly host: string
}

export interface MetricsListener {
  /** http://host:port/metrics */
  readonly url: string
  readonly port: number
  close(): Promise<void>
}

/**
 * The metrics' own small HTTP listener, apart from the API's port and its Fastify (no hooks, limits or
 * routes of the API reach it, and nginx, which proxies only the API's port, never does): GET /metrics
 * answers the Prometheus text; any other path 404, any other method 405.
 */
export const listenMetrics = async (
  scrape: () => Promise<{ readonly contentType: string; readonly body: string }>,
  at: MetricsAddress,
  log: (e: unknown) => void,
): Promise<MetricsListener> => {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the metrics are at /metrics\n')
      return
    }
    if (req.method !== 'GET') {
      res.writeHead(405, { 'content-type': 'text/plain', allow: 'GET' }).end('Method not allowed\n')
      return
    }
    scrape().then(
      (m) => res.writeHead(200, { 'content-type': m.contentType, 'cache-control': 'no-store' }).end(m.body),
      (e: unknown) => {
        log(e)
        res.writeHead(500, { 'content-type': 'text/plain' }).end('The metrics could not be read\n')
      },
    )
  })
  server.requestTimeout = 30_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(at.port, at.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  const host = at.host.includes(':') ? `[${at.host}]` : at.host
  return {
    url: `http://${host}:${port}/metrics`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
