import { localCluster, type Cluster } from '../cluster.ts'
import { isPostgresUrl, type Engine } from './engine.ts'

/** Opens the engine `where` names and brings its schema up to date. */
export const openEngine = async (where: string): Promise<Engine> => {
  if (isPostgresUrl(where)) {
    const { openPostgres } = await import('./postgres-engine.ts')
    return openPostgres(where)
  }
  const { openSqlite } = await import('./sqlite-engine.ts')
  return openSqlite(where)
}

/** The cluster of the instances sharing `where`: PostgreSQL's LISTEN/NOTIFY and advisory locks, or this process alone on SQLite. */
export const openCluster = async (where: string, engine: Engine, options: { readonly retryMs: number }): Promise<Cluster> => {
  if (!isPostgresUrl(where)) return localCluster()
  const { openPostgresCluster } = await import('./postgres-cluster.ts')
  return openPostgresCluster(where, engine, options)
}
