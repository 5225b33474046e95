/**
 * What one backend process does (AXIOM_ROLE; docs/deploy.md, "Roles: api and worker"):
 * - `api` serves HTTP and both sockets and never reads a treasury key: no chain watcher, payouts,
 *   cold sweep, periodic (settle) pass or notification sender;
 * - `worker` runs those, holds the key, and serves nothing public: it listens on 127.0.0.1 only,
 *   answering /health and /ready (the image's HEALTHCHECK) and nothing else, no socket;
 * - `all` does both: `npm start`, the tests, and a single-instance deployment.
 */
export type Role = 'api' | 'worker' | 'all'
export const ROLES: ReadonlyArray<Role> = ['api', 'worker', 'all']
export const DEFAULT_ROLE: Role = 'all'

/** AXIOM_ROLE's value; unset or empty is `all`. Throws on anything else. */
export const parseRole = (v: string | undefined): Role => {
  const t = (v ?? '').trim().toLowerCase()
  if (t === '') return DEFAULT_ROLE
  if (!(ROLES as ReadonlyArray<string>).includes(t)) throw new Error(`AXIOM_ROLE must be api, worker or all (got "${v}")`)
  return t as Role
}

/** Whether a process of `role` serves the public HTTP API and sockets. */
export const servesApi = (role: Role): boolean => role !== 'worker'
/** Whether a process of `role` runs the money and background jobs (and may hold the treasury key). */
export const runsJobs = (role: Role): boolean => role !== 'api'

/** Where a worker listens, whatever HOST says: its /health and /ready for the container's own probe (server/http/worker-app.ts). */
export const WORKER_HOST = '127.0.0.1'
