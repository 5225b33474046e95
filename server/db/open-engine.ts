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

