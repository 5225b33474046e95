import { isPostgresUrl, type Engine } from '../db/engine.ts'
import { localCluster, type Cluster } from './cluster.ts'

/** The cluster of the instances sharing `where`: PostgreSQL's LISTEN/NOTIFY and advisory locks, or this process alone on SQLite. */
export const openCluster = async (where: string, engine: Engine, options: { readonly retryMs: number }): Promise<Cluster> => {
  if (!isPostgresUrl(where)) return localCluster()
  const { openPostgresCluster } = await import('./postgres-cluster.ts')
  return openPostgresCluster(where, engine, options)
}
