/**
 * `npm run drill:restore`: the PostgreSQL backup and point-in-time restore drill.
 *
 *  1. A throwaway cluster (Debian's PostgreSQL, initdb in a temporary folder, a free port) archives
 *     every WAL segment with pgBackRest (`archive_mode` on, `archive-push`) to a repository of its own
 *     (stanza `axiom`).
 *  2. The real backend (startServer) runs on it, and workers keep writing through its HTTP API:
 *     sign-ins (with referrals), the operator's credits (`admin credit`), bonds paid, stakes, sales,
 *     referral-balance transfers.
 *  3. A full base backup is taken while they write (`pgbackrest backup`), and they keep writing.
 *  4. The target: the writers are held for a moment, the time is read together with every balance,
 *     the platform totals and the row counts in one snapshot, and the writers go on, with users
 *     signing in who must not come back.
 *  5. The WAL is archived up to the end (`pgbackrest check`), the backend and the cluster stop (the
 *     server is lost), and `pgbackrest restore --type=time` rebuilds the cluster as of the target in
 *     a fresh data folder. PostgreSQL replays the WAL to the target and is promoted; the backend
 *     starts on it.
 *  6. Checks: `admin verify-totals` (the CLI, in a child process with AXIOM_DB) agrees, and every
 *     balance, total and count equals the target's: zero differences; nobody who signed in after the
 *     target is there.
 *
 * Prints the recovery point (what came back, what did not) and how long each step took. Exits 1 on
 * any difference. Options: --workers=N (3), --writes=N per phase (60), --users=N to begin with (20),
 * --size=S|M|L (seed bench:scale's 10 000, 100 000 or 1 000 000 users first, so the times are those
 * of a database of that size), --json (the report as JSON). Needs Debian's `postgresql` and `pgbackrest` (`npm test` installs them
 * with apt-get where it may); see docs/deploy.md, "Back up and restore".
 */
import { spawn } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { DEV_BOT_TOKEN, startServer, type RunningServer } from '../server/main.ts'
import { signInitDataFor } from '../tests/support/init-data.ts'
import { seedScalePostgres, SIZES } from './scale-seed.ts'
import { BALANCES_SQL, COUNTS_SQL, diffStates, ledgerStateOf, TOTALS_SQL, type LedgerState } from './drill/ledger-state.ts'
import { createWorkspace, drillUnavailable, PG1, type PgServer } from './drill/pg-cluster.ts'
import { createWorkload, type ActionKind, type Workload } from './drill/workload.ts'

export interface DrillOptions {
  /** Workers writing side by side (3). */
  readonly workers?: number
  /** Writes before the backup, between its end and the target, and after the target (60 each); more go on during the backup. */
  readonly writesPerPhase?: number
  /** Users signed in before the writes begin (20). */
  readonly users?: number
  /** Users signed in after the target (who must be absent from the restore) (3). */
  readonly lateUsers?: number
  /** Users (with their bonds, stakes and operations) seeded before the backend starts, as bench:scale seeds them (0). */
  readonly seedUsers?: number
  /** Progress lines; none by default. */
  readonly log?: (line: string) => void
}

export interface DrillReport {
  /** The target, as given to pgbackrest restore --target (UTC). */
  readonly target: string
  /** The last transaction the restore replayed, and the first it stopped before, as PostgreSQL logged them. */
  readonly lastReplayed: string | null
  readonly stoppedBefore: string | null
  /** Writes completed while the base backup ran. */
  readonly writesDuringBackup: number
  /** Completed writes before the target (all must be back) and after it (none may be). */
  readonly writesBefore: number
  readonly writesAfter: number
  readonly users: number
  /** The database's size on disk at the target (pg_database_size), bytes. */
  readonly databaseBytes: number
  /** Users who signed in after the target, and how many of them the restore holds (0). */
  readonly lateUsers: number
  readonly lateUsersPresent: number
  /** Differences between the target's state and the state the writes ended at (what a wrong restore would bring back). */
  readonly changedAfterTarget: number
  /** Differences between the target's state and the restored one (balances, totals, counts): empty. */
  readonly differences: readonly string[]
  /** What `admin verify-totals` printed on the restored database, and its exit code (0). */
  readonly verifyTotals: { readonly code: number | null; readonly output: string }
  /** Balances read through the restored backend's API (GET /user/me) that differ from the target's: empty. */
  readonly apiDifferences: readonly string[]
  /** Seconds each step took. */
  readonly seconds: {
    readonly backup: number
    readonly archive: number
    readonly restore: number
    readonly postgresStart: number
    readonly backendStart: number
    /** restore + postgresStart + backendStart: from the restore command to a serving backend. */
    readonly recovery: number
  }
  readonly backupInfo: string
  readonly writes: Readonly<Record<ActionKind, readonly [number, number]>>
}

const since = (t: number) => Math.round(performance.now() - t) / 1000

/** Reads the ledger state of the database at `url` in one REPEATABLE READ snapshot, with the time of that snapshot (UTC). */
const readState = async (url: string): Promise<{ at: string; state: LedgerState }> => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
    // The first statement takes the snapshot; the time is read by it.
    const at = (await client.query<{ at: string }>(`SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00' AS at`)).rows[0]!.at
    const state = ledgerStateOf((await client.query(BALANCES_SQL)).rows, (await client.query(TOTALS_SQL)).rows, (await client.query(COUNTS_SQL)).rows)
    await client.query('COMMIT')
    return { at, state }
  } finally {
    await client.end()
  }
}

const databaseSize = async (url: string): Promise<number> => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return Number((await client.query<{ n: string }>('SELECT pg_database_size(current_database()) AS n')).rows[0]!.n)
  } finally {
    await client.end()
  }
}

/** `node --import tsx server/admin.ts <args>` with AXIOM_DB=db: its exit code and output. */
export const adminCli = (db: string, args: readonly string[]): Promise<{ code: number | null; output: string }> =>
  new Promise((resolve, reject) => {
    const root = fileURLToPath(new URL('..', import.meta.url))
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/admin.ts', ...args], { cwd: root, env: { ...process.env, AXIOM_DB: db }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, output: output.trim() }))
  })

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const startBackend = (db: string) => startServer({ port: 0, host: '127.0.0.1', dbPath: db, rateLimits: null, priceTickMs: 1_000 })

/** Runs the drill; the temporary cluster, its servers and folders are gone when it settles, whatever happened. */
export const runRestoreDrill = async (options: DrillOptions = {}): Promise<DrillReport> => {
  const why = drillUnavailable()
  if (why) throw new Error(why)
  const log = options.log ?? (() => undefined)
  const perPhase = options.writesPerPhase ?? 60
  const ws = createWorkspace()
  const backends: RunningServer[] = []
  const servers: PgServer[] = []
  let work: Workload | null = null
  try {
    // 1. The cluster, archiving to pgBackRest.
    const pg1 = ws.dataDir(PG1)
    await ws.initdb(pg1)
    const first: PgServer = await ws.start(pg1)
    servers.push(first)
    await ws.pgbackrest([`--pg1-port=${first.port}`, 'stanza-create'])
    log(`cluster on 127.0.0.1:${first.port}, archiving to ${ws.repoDir} (stanza axiom)`)

    if (options.seedUsers) {
      const t0 = performance.now()
      await seedScalePostgres(first.url, options.seedUsers, Math.floor(Date.now() / 1000))
      log(`seeded ${options.seedUsers} users in ${since(t0)} s`)
    }

    // 2. The backend and the writers.
    const backend = await startBackend(first.url)
    backends.push(backend)
    work = createWorkload({ server: backend, db: first.url, workers: options.workers ?? 3 })
    await work.register(options.users ?? 20)
    work.start()
    await work.waitFor(perPhase)

    // 3. A full base backup while they write.
    const beforeBackup = work.done()
    let t = performance.now()
    await ws.pgbackrest([`--pg1-port=${first.port}`, '--type=full', 'backup'])
    const backupS = since(t)
    const writesDuringBackup = work.done() - beforeBackup
    log(`base backup: ${backupS} s, with ${work.done()} writes done`)
    // pgBackRest keeps a backup's stop time in whole seconds: a target too close after it can fall at or
    // before it (`unable to find backup set with stop time less than …`, seen on a loaded machine), so
    // the target is taken at least two seconds after the backup returned, the writers going on meanwhile.
    const backupDone = performance.now()
    await work.waitFor(work.done() + perPhase)
    await sleep(Math.max(0, 2000 - (performance.now() - backupDone)))

    // 4. The target: the writers held for a moment around it, so the state read is the state at that time.
    await work.pause()
    await sleep(30)
    const target = await readState(first.url)
    const writesBefore = work.done()
    const databaseBytes = await databaseSize(first.url)
    await sleep(30)
    work.resume()
    log(`target ${target.at}: ${target.state.balances.size} users, ${writesBefore} writes before it`)
    const late = await work.register(options.lateUsers ?? 3)
    await work.waitFor(work.done() + perPhase)
    await work.stop()
    const writesAfter = work.done() - writesBefore + late.length
    // What the writes after the target changed: a restore that brought them back would show as many differences.
    const changedAfterTarget = diffStates(target.state, (await readState(first.url)).state).length

    // 5. Archive the WAL to its end; the server is lost; restore to the target in a fresh folder.
    t = performance.now()
    await ws.pgbackrest([`--pg1-port=${first.port}`, 'check'])
    const archiveS = since(t)
    await backend.close()
    backends.length = 0
    await first.stop()
    const backupInfo = (await ws.pgbackrest(['info'])).trim()
    const restored = ws.dataDir('restored')
    t = performance.now()
    await ws.pgbackrest([`--pg1-path=${restored}`, '--type=time', `--target=${target.at}`, '--target-action=promote', 'restore'])
    const restoreS = since(t)
    t = performance.now()
    const second = await ws.start(restored)
    servers.push(second)
    const postgresStartS = since(t)
    t = performance.now()
    const again = await startBackend(second.url)
    backends.push(again)
    const backendStartS = since(t)
    log(`restored: pgbackrest restore ${restoreS} s, PostgreSQL replay and promotion ${postgresStartS} s, backend ${backendStartS} s`)

    // 6. The checks.
    const now = await readState(second.url)
    const lateIds = new Set(late.map(String))
    const lateUsersPresent = [...now.state.balances.keys()].filter((id) => lateIds.has(id)).length
    const differences = diffStates(target.state, now.state)
    const verifyTotals = await adminCli(second.url, ['verify-totals'])
    const apiDifferences: string[] = []
    // Through the restored backend as a user sees it: a sample (at most 60) of the users there at the target.
    const all = [...target.state.balances.keys()]
    const step = Math.max(5, Math.ceil(all.length / 60))
    const sample = all.filter((_, i) => i % step === 0)
    const toNano = (s: string) => {
      const [w, f = ''] = s.split('.')
      return (BigInt(w!) * 1_000_000_000n + BigInt((f + '000000000').slice(0, 9))).toString()
    }
    for (const id of sample) {
      const reg = await fetch(`${again.url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ init_data: signInitDataFor({ id: Number(id) }, Math.floor(Date.now() / 1000), DEV_BOT_TOKEN) }),
      })
      const { token } = (await reg.json()) as { token: string }
      const me = (await (await fetch(`${again.url}/api/user/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as Record<string, string>
      const seen = `${toNano(me.balance_token!)} ${toNano(me.task_balance!)} ${toNano(me.referral_balance!)}`
      if (seen !== target.state.balances.get(id)) apiDifferences.push(`user ${id}: /user/me ${seen}, expected ${target.state.balances.get(id)}`)
    }
    const line = (re: RegExp) => re.exec(second.log())?.[1] ?? null
    return {
      target: target.at,
      lastReplayed: line(/last completed transaction was at log time (\S+ \S+)/),
      stoppedBefore: line(/recovery stopping before (?:commit|abort) of transaction \d+, time (\S+ \S+)/),
      writesDuringBackup,
      writesBefore,
      writesAfter,
      users: target.state.balances.size,
      databaseBytes,
      lateUsers: late.length,
      lateUsersPresent,
      changedAfterTarget,
      differences,
      verifyTotals,
      apiDifferences,
      seconds: {
        backup: backupS,
        archive: archiveS,
        restore: restoreS,
        postgresStart: postgresStartS,
        backendStart: backendStartS,
        recovery: Math.round((restoreS + postgresStartS + backendStartS) * 1000) / 1000,
      },
      backupInfo,
      writes: work.stats(),
    }
  } catch (e) {
    // What PostgreSQL said (an archive_command that fails, a recovery that stops short) goes with the error.
    const tail = servers.map((s) => `PostgreSQL on ${s.dataDir}, the end of its log:\n${s.log().trim().split('\n').slice(-25).join('\n')}`).join('\n')
    if (e instanceof Error && tail) e.message += `\n${tail}`
    throw e
  } finally {
    await work?.stop().catch(() => undefined)
    for (const b of backends) await b.close().catch(() => undefined)
    await ws.close()
  }
}

/** Whether the drill found the restore exact. */
export const drillPassed = (r: DrillReport): boolean =>
  r.differences.length === 0 && r.apiDifferences.length === 0 && r.lateUsersPresent === 0 && r.verifyTotals.code === 0

export const reportText = (r: DrillReport): string =>
  [
    `recovery point: ${r.target} (pgbackrest restore --type=time)`,
    `  restored up to: last transaction replayed at ${r.lastReplayed ?? '?'}; stopped before the one at ${r.stoppedBefore ?? '?'}`,
    `  database at the target: ${(r.databaseBytes / 1048576).toFixed(1)} MiB`,
    `  lost before the target: ${r.differences.length === 0 ? 'nothing' : `${r.differences.length} differences`} (${r.writesBefore} writes before it, ${r.users} users, every balance, total and count compared)`,
    `  after the target (not restored, as asked): ${r.writesAfter} writes (${r.changedAfterTarget} balances, totals and counts changed), ${r.lateUsers} users signed in then, ${r.lateUsersPresent} of them present`,
    `differences: ${r.differences.length + r.apiDifferences.length}${[...r.differences, ...r.apiDifferences].map((d) => `\n  ${d}`).join('')}`,
    `admin verify-totals: ${r.verifyTotals.output} (exit ${r.verifyTotals.code})`,
    'time:',
    `  base backup while writing      ${r.seconds.backup.toFixed(2)} s (${r.writesDuringBackup} writes meanwhile)`,
    `  archive the WAL to its end     ${r.seconds.archive.toFixed(2)} s (pgbackrest check)`,
    `  restore to the target          ${r.seconds.restore.toFixed(2)} s (pgbackrest restore)`,
    `  PostgreSQL replay and promote  ${r.seconds.postgresStart.toFixed(2)} s`,
    `  backend start                  ${r.seconds.backendStart.toFixed(2)} s`,
    `  recovery time (the three)      ${r.seconds.recovery.toFixed(2)} s`,
    `writes [done, refused]: ${Object.entries(r.writes).map(([k, [a, b]]) => `${k} ${a}/${b}`).join(', ')}`,
  ].join('\n')

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const arg = (name: string) => {
    const a = process.argv.find((v) => v.startsWith(`--${name}=`))
    return a === undefined ? undefined : Number(a.slice(name.length + 3))
  }
  const json = process.argv.includes('--json')
  const sizeArg = process.argv.find((v) => v.startsWith('--size='))?.slice('--size='.length)
  if (sizeArg !== undefined && !(sizeArg in SIZES)) {
    console.error(`--size must be one of ${Object.keys(SIZES).join(', ')}`)
    process.exit(1)
  }
  const size = sizeArg as keyof typeof SIZES | undefined
  const why = drillUnavailable()
  if (why) {
    console.error(`drill:restore cannot run on this machine: ${why}`)
    process.exit(1)
  }
  // Ctrl-C: stop the writers' servers and the clusters before leaving (the workspace's exit hook).
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => process.exit(130))
  const started = performance.now()
  try {
    const report = await runRestoreDrill({
      ...(arg('workers') ? { workers: arg('workers') } : {}),
      ...(arg('writes') ? { writesPerPhase: arg('writes') } : {}),
      ...(arg('users') ? { users: arg('users') } : {}),
      ...(size ? { seedUsers: SIZES[size].users } : {}),
      log: json ? undefined : (l) => console.log(`[drill] ${l}`),
    })
    if (json) console.log(JSON.stringify(report, null, 2))
    else console.log(`${reportText(report)}\nwhole drill: ${since(started).toFixed(1)} s\n${drillPassed(report) ? 'PASSED: zero differences' : 'FAILED'}`)
    process.exitCode = drillPassed(report) ? 0 : 1
  } catch (e) {
    console.error(`drill:restore failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}`)
    process.exitCode = 1
  }
}
