import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../support/free-port.ts'

/**
 * deploy/nginx.conf as shipped, run by Debian's nginx (`apt-get install nginx-light`; `npm test`
 * installs it, scripts/ensure-installed.mjs) as a child process of the test. Only what ties the file
 * to the compose network is replaced: the upstream's `api:8787` by the test backend's address, the
 * listen port, the root, and (where asked) the TLS front's address by one on the loopback range. The
 * file's `server`, `upstream` and `map` blocks go into a minimal `http` block, as the nginx image's
 * /etc/nginx/nginx.conf includes conf.d/default.conf.
 */

export const NGINX_PATH = process.env.NGINX_PATH ?? '/usr/sbin/nginx'
export const SHIPPED_CONF = new URL('../../deploy/nginx.conf', import.meta.url)

/** Why the shipped configuration cannot be run here, or null when it can. */
export const nginxUnavailable = (): string | null =>
  existsSync(NGINX_PATH) ? null : `no nginx at ${NGINX_PATH} (apt-get install -y nginx-light, or set NGINX_PATH)`


/** Replaces `from` by `to` where it stands exactly once in the file (so a changed file fails loudly, not silently). */
const once = (text: string, from: string, to: string): string => {
  const n = text.split(from).length - 1
  if (n !== 1) throw new Error(`deploy/nginx.conf: expected "${from}" once, found it ${n} times`)
  return text.replace(from, to)
}

export interface ShippedNginx {
  readonly url: string
  readonly port: number
  /** The file as nginx ran it. */
  readonly conf: string
  close(): Promise<void>
}

export const startShippedNginx = async (o: {
  readonly backendPort: number
  /** The built app (a directory nginx serves). */
  readonly root: string
  /** The TLS front's address on this machine, in place of the compose network's gateway. */
  readonly front: string
}): Promise<ShippedNginx> => {
  const dir = mkdtempSync(join(tmpdir(), 'axiom-nginx-'))
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, sub))
  const port = await freePort()
  let conf = readFileSync(SHIPPED_CONF, 'utf8')
  conf = once(conf, 'server api:8787 ', `server 127.0.0.1:${o.backendPort} `)
  conf = once(conf, 'listen 80;', `listen 127.0.0.1:${port};`)
  conf = once(conf, 'root /usr/share/nginx/html;', `root ${o.root};`)
  conf = once(conf, 'set_real_ip_from 172.31.250.1;', `set_real_ip_from ${o.front};`)
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  const main = [
    // As root, nginx would run its workers as www-data, who may not read this test's directories.
    ...(isRoot ? ['user root;'] : []),
    'worker_processes 1;',
    `error_log ${join(dir, 'error.log')} warn;`,
    `pid ${join(dir, 'nginx.pid')};`,
    'events { worker_connections 256; }',
    'http {',
    '  types { text/html html; text/javascript js; text/css css; application/json json; image/png png; image/svg+xml svg; }',
    '  default_type application/octet-stream;',
    '  access_log off;',
    `  client_body_temp_path ${join(dir, 'body')};`,
    `  proxy_temp_path ${join(dir, 'proxy')};`,
    `  fastcgi_temp_path ${join(dir, 'fastcgi')};`,
    `  uwsgi_temp_path ${join(dir, 'uwsgi')};`,
    `  scgi_temp_path ${join(dir, 'scgi')};`,
    conf,
    '}',
  ].join('\n')
  writeFileSync(join(dir, 'nginx.conf'), main)
  const child: ChildProcess = spawn(NGINX_PATH, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 10_000
  for (;;) {
    if (child.exitCode !== null) {
      const log = existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : ''
      throw new Error(`nginx exited (${child.exitCode}): ${stderr}${log}`)
    }
    const up = await fetch(`${url}/`).then(
      () => true,
      () => false,
    )
    if (up) break
    if (Date.now() > deadline) throw new Error(`nginx did not answer on ${url}: ${stderr}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  return {
    url,
    port,
    conf,
    close: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM')
        await exited
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
