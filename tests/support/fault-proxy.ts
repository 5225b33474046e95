import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { relayUpgrade } from './upgrade-relay.ts'

export type Fault =
  | { readonly kind: 'status'; readonly status: number; readonly msg: string }
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'drop' }
  /** The call reaches the backend and is carried out, but its answer never reaches the client. */
  | { readonly kind: 'lose-answer' }
  /** The client hears nothing; the call reaches the backend `ms` later all the same (a message held up in the network). */
  | { readonly kind: 'late'; readonly ms: number }

/**
 * An HTTP proxy in front of the reference backend that can break chosen calls the way real
 * networks and servers break: an error status, a slow answer, or a dropped connection.
 * Sockets (upgrades) pass through untouched.
 */
export interface FaultProxy {
  readonly url: string
  /** Breaks calls whose path (under /api) starts with `pathPrefix`, until cleared. */
  fail(pathPrefix: string, fault: Fault): void
  /** How many calls under `pathPrefix` have met a fault so far: a test waits on it, not on a guessed time. */
  met(pathPrefix: string): number
  clear(): void
  /** Every call that reached the proxy, as `METHOD path`, in order (a recording proxy). */
  readonly seen: ReadonlyArray<string>
  close(): Promise<void>
}

export const startFaultProxy = async (target: string): Promise<FaultProxy> => {
  const faults = new Map<string, Fault>()
  const broken: string[] = []
  const upstream = new URL(target)
  const faultFor = (url: string) => {
    const path = new URL(url, 'http://x').pathname.replace(/^\/api/, '')
    for (const [prefix, fault] of faults) if (path.startsWith(prefix)) return fault
    return null
  }
  /** Sends the call on to the backend; with `loseAnswer` the backend acts but its answer is dropped. */
  const forward = (req: IncomingMessage, res: ServerResponse, loseAnswer = false) => {
    const out = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        if (loseAnswer) {
          up.resume()
          up.on('end', () => req.socket.destroy())
          return
        }
        res.writeHead(up.statusCode ?? 502, up.headers)
        up.pipe(res)
      },
    )
    out.on('error', () => res.destroy())
    req.pipe(out)
  }
  const seen: string[] = []
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`)
    const fault = faultFor(req.url ?? '/')
    if (!fault) return forward(req, res)
    broken.push(new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/api/, ''))
    if (fault.kind === 'drop') return req.socket.destroy()
    if (fault.kind === 'lose-answer') return forward(req, res, true)
    if (fault.kind === 'late') {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        req.socket.destroy()
        setTimeout(() => {
          const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => up.resume())
          out.on('error', () => undefined)
          out.end(Buffer.concat(chunks))
        }, fault.ms)
      })
      return
    }
    if (fault.kind === 'delay') {
      const timer = setTimeout(() => forward(req, res), fault.ms)
      res.on('close', () => clearTimeout(timer))
      return
    }
    res.writeHead(fault.status, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ msg: fault.msg }))
  })
  server.on('upgrade', (req, socket, head) => relayUpgrade(upstream, req, socket, head))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    fail: (prefix, fault) => faults.set(prefix, fault),
    met: (prefix) => broken.filter((path) => path.startsWith(prefix)).length,
    clear: () => faults.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
