import { DEFAULT_HOST, DEFAULT_PORT } from '../config/config.ts'
import type { MetricsAddress } from './metrics-server.ts'

/** Where production's metrics listen unless AXIOM_METRICS_PORT says otherwise (prom-client's and the exporters' usual port). */
export const DEFAULT_PRODUCTION_METRICS_PORT = 9464

/**
 * The metrics listener from the environment, or null for none:
 * - AXIOM_METRICS_PORT: a port (0 picks a free one), or `off`. Unset: none outside production,
 *   DEFAULT_PRODUCTION_METRICS_PORT in production. It may not be the API's PORT: the metrics have a
 *   port of their own, which nginx does not proxy (deploy/nginx.conf).
 * - AXIOM_METRICS_HOST: the address it binds; default HOST (the instance's address: 0.0.0.0 in the
 *   image, so Prometheus reaches it over the compose network, where no port is published), else 127.0.0.1.
 *   A worker's API listens on 127.0.0.1 whatever HOST says; its metrics bind here.
 */
export const metricsFromEnv = (env: NodeJS.ProcessEnv, o: { readonly production: boolean }): MetricsAddress | null => {
  const raw = env.AXIOM_METRICS_PORT?.trim().toLowerCase() ?? ''
  if (raw === 'off') return null
  if (raw === '' && !o.production) return null
  const port = raw === '' ? DEFAULT_PRODUCTION_METRICS_PORT : /^\d{1,5}$/.test(raw) ? Number(raw) : NaN
  if (!(port >= 0 && port <= 65_535)) throw new Error('AXIOM_METRICS_PORT must be a port (0 to 65535) or off')
  const apiPort = env.PORT?.trim() ? Number(env.PORT) : DEFAULT_PORT
  if (port !== 0 && port === apiPort) throw new Error(`AXIOM_METRICS_PORT is the API's PORT (${port}): the metrics need a port of their own, which nginx does not proxy`)
  const host = env.AXIOM_METRICS_HOST?.trim() || env.HOST?.trim() || DEFAULT_HOST
  return { port, host }
}
