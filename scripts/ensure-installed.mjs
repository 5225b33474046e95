#!/usr/bin/env node
/**
 * Runs before `npm start` and `npm test` (their `pre` scripts), so that on a fresh clone each of the
 * two commands works alone. Plain Node with no dependencies: it runs before node_modules exists.
 *
 * - Dependencies: `npm ci` when node_modules is missing, or when any package the lockfile pins is
 *   absent or at another version than node_modules/.package-lock.json (npm's record of what it
 *   installed) says.
 * - With `--browser` (for `npm test`): Debian's Chromium at CHROMIUM_PATH (/usr/bin/chromium), installed
 *   with apt-get when this user may; otherwise a message that says how, and a failing exit.
 *   And Debian's nginx at NGINX_PATH (/usr/sbin/nginx), which runs deploy/nginx.conf in
 *   tests/deploy/nginx.test.ts: installed the same way (nginx-light); where it cannot be, a one-line
 *   notice, and that test skips saying why (the rest of the suite does not need it).
 *   And Debian's PostgreSQL server with pgBackRest, for the restore drill (tests/drill/restore-drill.test.ts):
 *   installed the same way (postgresql, pgbackrest), skipped with a notice where they cannot be.
 *   And Debian's promtool at PROMTOOL_PATH (/usr/bin/promtool, package prometheus), which unit-tests
 *   deploy/prometheus/alerts.yml in tests/deploy/prometheus-alerts.test.ts: installed the same way,
 *   skipped with a notice where it cannot be. And Debian's Alertmanager (prometheus-alertmanager),
 *   which runs deploy/alertmanager/alertmanager.yml in tests/deploy/alertmanager.test.ts, the same way.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const wantBrowser = process.argv.includes('--browser')

const readJson = (path) => {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return null
  }
}

/** Why node_modules does not match the lockfile, or null when it does. */
export const staleReason = (lock, installed) => {
  if (!installed) return 'node_modules is missing'
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    if (path === '' || entry.optional || entry.link) continue
    const have = installed.packages?.[path]
    if (!have) return `${path.replace(/^.*node_modules\//, '')} is not installed`
    if (have.version !== entry.version) return `${path.replace(/^.*node_modules\//, '')} is ${have.version}, the lockfile wants ${entry.version}`
  }
  return null
}

const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit' }).status === 0

const ensureDependencies = () => {
  const lock = readJson(join(root, 'package-lock.json'))
  if (!lock) return
  const reason = staleReason(lock, readJson(join(root, 'node_modules', '.package-lock.json')))
  if (!reason) return
  console.log(`[axiom] ${reason}: installing dependencies (npm ci; better-sqlite3 compiles from source, about a minute)`)
  if (!run('npm', ['ci', '--no-audit', '--no-fund'])) {
    console.error('[axiom] npm ci failed; see above')
    process.exit(1)
  }
}

let aptUpdated = false

/** Installs Debian packages with apt-get when this user may (root, or sudo without a password); false when it cannot. */
const aptInstall = (packages) => {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  const sudoOk = !isRoot && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0
  if (!(isRoot || sudoOk) || !existsSync('/usr/bin/apt-get')) return false
  const pre = isRoot ? [] : ['sudo', '-n']
  const apt = (args) => run(pre[0] ?? 'apt-get', pre.length ? [...pre.slice(1), 'apt-get', ...args] : args)
  process.env.DEBIAN_FRONTEND = 'noninteractive'
  if (!aptUpdated && !apt(['update', '-qq'])) return false
  aptUpdated = true
  return apt(['install', '-y', '-qq', ...packages])
}

const ensureChromium = () => {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  if (existsSync(path)) return
  if (path === '/usr/bin/chromium') {
    console.log("[axiom] the browser tests need Debian's Chromium: installing it with apt-get (about 30 s)")
    if (aptInstall(['chromium']) && existsSync(path)) return
  }
  console.error(
    `[axiom] The browser tests need Chromium at ${path} and it is not there.\n` +
      "        On Debian or Ubuntu: sudo apt-get install -y chromium\n" +
      '        Elsewhere: install Chromium and set CHROMIUM_PATH to its executable. No browser is ever downloaded by the tests.',
  )
  process.exit(1)
}

const ensureNginx = () => {
  const path = process.env.NGINX_PATH ?? '/usr/sbin/nginx'
  if (existsSync(path)) return
  if (path === '/usr/sbin/nginx') {
    console.log("[axiom] tests/deploy/nginx.test.ts runs deploy/nginx.conf with Debian's nginx: installing nginx-light with apt-get")
    // Debian starts an installed service where it can; the tests run nginx themselves, so keep it stopped.
    if (aptInstall(['nginx-light']) && existsSync(path)) {
      spawnSync('service', ['nginx', 'stop'], { stdio: 'ignore' })
      return
    }
  }
  console.warn(`[axiom] no nginx at ${path}: tests/deploy/nginx.test.ts will skip (sudo apt-get install -y nginx-light, or set NGINX_PATH)`)
}

/** Whether Debian's PostgreSQL server programs are installed (any major), or AXIOM_DRILL_PG_BIN names a folder with them. */
const hasPostgresServer = () => {
  if (process.env.AXIOM_DRILL_PG_BIN) return existsSync(join(process.env.AXIOM_DRILL_PG_BIN, 'postgres'))
  try {
    return readdirSync('/usr/lib/postgresql').some((major) => existsSync(join('/usr/lib/postgresql', major, 'bin', 'postgres')))
  } catch {
    return false
  }
}

/**
 * The restore drill (tests/drill/restore-drill.test.ts, npm run drill:restore) runs Debian's
 * PostgreSQL with pgBackRest: both installed the same way (pgbackrest, postgresql); where they cannot
 * be, a one-line notice, and that test skips saying why.
 */
const ensurePgBackRest = () => {
  const backrest = process.env.AXIOM_PGBACKREST ?? '/usr/bin/pgbackrest'
  const hadServer = hasPostgresServer()
  if (existsSync(backrest) && hadServer) return
  if (!process.env.AXIOM_PGBACKREST) {
    console.log("[axiom] the restore drill needs Debian's PostgreSQL and pgBackRest: installing postgresql and pgbackrest with apt-get")
    if (aptInstall(hadServer ? ['pgbackrest'] : ['pgbackrest', 'postgresql']) && existsSync(backrest) && hasPostgresServer()) {
      // Debian starts the cluster it creates where it can; the drill runs its own, so keep that one stopped.
      if (!hadServer) spawnSync('service', ['postgresql', 'stop'], { stdio: 'ignore' })
      return
    }
  }
  console.warn(`[axiom] no pgbackrest at ${backrest} or no PostgreSQL server: tests/drill/restore-drill.test.ts will skip (sudo apt-get install -y pgbackrest postgresql)`)
}

/**
 * promtool (Debian's prometheus package: promtool check rules, test rules) for
 * tests/deploy/prometheus-alerts.test.ts. Without its recommended node exporter; the Prometheus
 * server the package brings is not wanted running (compose runs its own), so it is stopped.
 */
const ensurePromtool = () => {
  const path = process.env.PROMTOOL_PATH ?? '/usr/bin/promtool'
  if (existsSync(path)) return
  if (path === '/usr/bin/promtool') {
    console.log("[axiom] tests/deploy/prometheus-alerts.test.ts runs Debian's promtool: installing prometheus with apt-get")
    if (aptInstall(['--no-install-recommends', 'prometheus']) && existsSync(path)) {
      spawnSync('service', ['prometheus', 'stop'], { stdio: 'ignore' })
      return
    }
  }
  console.warn(`[axiom] no promtool at ${path}: tests/deploy/prometheus-alerts.test.ts will skip (sudo apt-get install -y --no-install-recommends prometheus, or set PROMTOOL_PATH)`)
}

/**
 * Debian's Alertmanager and amtool (package prometheus-alertmanager) for tests/deploy/alertmanager.test.ts,
 * which runs deploy/alertmanager/alertmanager.yml. The service the package brings is stopped (the test
 * starts its own on a free port).
 */
const ensureAlertmanager = () => {
  const path = process.env.ALERTMANAGER_PATH ?? '/usr/bin/prometheus-alertmanager'
  if (existsSync(path) && existsSync(process.env.AMTOOL_PATH ?? '/usr/bin/amtool')) return
  if (path === '/usr/bin/prometheus-alertmanager') {
    console.log("[axiom] tests/deploy/alertmanager.test.ts runs Debian's Alertmanager: installing prometheus-alertmanager with apt-get")
    if (aptInstall(['--no-install-recommends', 'prometheus-alertmanager']) && existsSync(path)) {
      spawnSync('service', ['prometheus-alertmanager', 'stop'], { stdio: 'ignore' })
      return
    }
  }
  console.warn(`[axiom] no Alertmanager at ${path}: tests/deploy/alertmanager.test.ts will skip (sudo apt-get install -y --no-install-recommends prometheus-alertmanager, or set ALERTMANAGER_PATH)`)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  ensureDependencies()
  if (wantBrowser) {
    ensureChromium()
    ensureNginx()
    ensurePgBackRest()
    ensurePromtool()
    ensureAlertmanager()
  }
}
