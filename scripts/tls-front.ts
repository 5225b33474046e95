/**
 * The built app served the way users get it: Telegram opens only `https` Mini App URLs, and the
 * host's TLS front (a load balancer, Caddy, Traefik; docs/deploy.md) speaks HTTP/2, in front of
 * nginx (deploy/nginx.conf): the files gzipped, /assets/ cached for a year (their names change with
 * their content), the page revalidated on every open (no-cache, answered 304 when unchanged), and
 * /api, HTTP and WebSockets, passed to the backend. One HTTP/2 connection carries every request, so
 * the boot's dozen files do not queue for HTTP/1.1's six connections to the host.
 *
 * For the benches only. The certificate (scripts/fixtures) is a throwaway self-signed one for
 * 127.0.0.1, not a secret, and the browser is told to trust it (`trustTlsFrontFlag`).
 * WebSockets arrive over HTTP/1.1 (this front does not offer them over HTTP/2) and are piped as
 * they are.
 */
import { createHash, X509Certificate } from 'node:crypto'
import { readFileSync } from 'node:fs'
import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http'
import http2, { type Http2ServerRequest, type Http2ServerResponse } from 'node:http2'
import net from 'node:net'
import { extname, join, normalize, sep } from 'node:path'
import { gzipSync } from 'node:zlib'
import * as chromeLauncher from 'chrome-launcher'
import { securityHeaders } from '../deploy/security-headers.ts'

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url))

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
}
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg'])
/** Headers of one hop, which HTTP/2 forbids and a proxy does not pass on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'http2-settings'])

interface StaticFile {
  readonly body: Buffer
  readonly gzipped: Buffer | null
  readonly etag: string
  readonly type: string
}

const CERT = fixture('bench-tls-127.0.0.1.cert.pem')

/**
 * The security headers nginx adds to every answer, the page's, the files' and /api's
 * (deploy/security-headers.ts): over TLS, so HSTS too; the `local` policy, for the app built for
 * the local stack (a browser ignores HSTS for an address such as 127.0.0.1).
 */
const SECURITY_HEADERS: OutgoingHttpHeaders = Object.fromEntries(Object.entries(securityHeaders({ mode: 'local', tls: true })).map(([k, v]) => [k.toLowerCase(), v]))

/**
 * The Chromium flag that has it trust the front's certificate: by its public key, as a valid one
 * (with --ignore-certificate-errors instead, Chromium would keep nothing from the front in its HTTP
 * cache, and a repeat visit would download everything again).
 */
export const trustTlsFrontFlag = (): string =>
  `--ignore-certificate-errors-spki-list=${createHash('sha256')
    .update(new X509Certificate(CERT).publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64')}`

export interface TlsFront {
  /** https://127.0.0.1:<port> */
  readonly url: string
  close(): Promise<void>
}

const passable = (headers: IncomingHttpHeaders): OutgoingHttpHeaders =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !name.startsWith(':') && !HOP_BY_HOP.has(name)))

/** Serves `root` (a production build) over TLS and HTTP/2, and passes /api to `backend` (http://host:port). */
export const startTlsFront = async (o: { root: string; backend: string }): Promise<TlsFront> => {
  const backend = new URL(o.backend)
  const files = new Map<string, StaticFile | null>()

  /** The file at a URL path, read once; null when there is none (a route: the page answers it). */
  const fileAt = (path: string): StaticFile | null => {
    if (files.has(path)) return files.get(path)!
    const full = normalize(join(o.root, decodeURIComponent(path)))
    let file: StaticFile | null = null
    if (full.startsWith(normalize(o.root) + sep)) {
      try {
        const body = readFileSync(full)
        const ext = extname(full)
        file = {
          body,
          gzipped: COMPRESSIBLE.has(ext) ? gzipSync(body, { level: 6 }) : null,
          etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
          type: TYPES[ext] ?? 'application/octet-stream',
        }
      } catch {
        file = null
      }
    }
    files.set(path, file)
    return file
  }

  const serveFile = (req: Http2ServerRequest | http.IncomingMessage, res: Http2ServerResponse | http.ServerResponse, path: string) => {
    const file = (path.endsWith('/') ? null : fileAt(path)) ?? fileAt('/index.html')
    if (!file) {
      res.writeHead(404)
      res.end()
      return
    }
    const cacheControl = path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache'
    const headers: OutgoingHttpHeaders = { ...SECURITY_HEADERS, 'content-type': file.type, 'cache-control': cacheControl, etag: file.etag, vary: 'accept-encoding' }
    if (req.headers['if-none-match'] === file.etag) {
      res.writeHead(304, headers)
      res.end()
      return
    }
    const gzip = file.gzipped && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))
    const body = gzip ? file.gzipped! : file.body
    res.writeHead(200, { ...headers, ...(gzip ? { 'content-encoding': 'gzip' } : {}), 'content-length': body.length })
    if (req.method === 'HEAD') res.end()
    else res.end(body)
  }

  const passToBackend = (req: Http2ServerRequest | http.IncomingMessage, res: Http2ServerResponse | http.ServerResponse) => {
    const upstream = http.request(
      { host: backend.hostname, port: backend.port, method: req.method, path: req.url, headers: { ...passable(req.headers), host: backend.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...passable(answer.headers), ...SECURITY_HEADERS })
        answer.pipe(res)
      },
    )
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502)
      res.end()
    })
    req.pipe(upstream)
  }

  const sockets = new Set<net.Socket>()
  const server = http2.createSecureServer({ key: fixture('bench-tls-127.0.0.1.key.pem'), cert: CERT, allowHTTP1: true }, (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!
    if (path === '/api' || path.startsWith('/api/')) passToBackend(req, res)
    else serveFile(req, res, path)
  })
  server.on('secureConnection', (socket: net.Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  // A WebSocket (HTTP/1.1 Upgrade): the request head as it came, then both ways as they are.
  server.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    const upstream = net.connect(Number(backend.port), backend.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`]
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`)
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`)
      if (head.length) upstream.write(head)
      socket.pipe(upstream).pipe(socket)
    })
    const end = () => {
      socket.destroy()
      upstream.destroy()
    }
    for (const side of [upstream, socket]) {
      side.on('error', end)
      side.on('close', end)
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  return {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/**
 * Debian's Chromium for Lighthouse (chrome-launcher; CHROME_PATH or /usr/bin/chromium): headless,
 * without background traffic, and trusting this front's certificate.
 */
export const launchChromeForLighthouse = (): Promise<chromeLauncher.LaunchedChrome> =>
  chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      trustTlsFrontFlag(),
    ],
  })
