import { createHash } from 'node:crypto'
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { relayUpgrade } from './upgrade-relay.ts'

/**
 * A loopback HTTP proxy in front of the reference backend that breaks a seeded share of the calls
 * the way networks and gateways break them:
 * - `500`: the proxy answers 500 itself, the backend never sees the call;
 * - `timeout`: the call reaches the backend and is carried out, but its answer is held and the
 *   connection dropped (the client hears nothing: the case idempotency keys exist for).
 * Whether a call is broken is a function of the seed, the call (method, path, bearer, idempotency key)
 * and how many times that same call was seen, so a run's faults do not depend on timing.
 * Sockets (upgrades) pass through, and `cutSockets` drops the open ones on a path.
 */
export interface ChaosProxy {
  readonly url: string
  /** Turns the random faults on or off (off: every call is forwarded as it is). */
  setFaults(on: boolean): void
  /** Drops every open socket whose path `which` accepts; answers how many were dropped. */
  cutSockets(which: (path: string) => boolean): number
  readonly counts: ChaosCounts
  close(): Promise<void>
}

export interface ChaosCounts {
  /** HTTP calls seen (sockets aside). */
  requests: number
  injected500: number
  injectedTimeout: number
  /** Calls the proxy could not forward because the backend was down (a restart). */
  upstreamDown: number
  socketsCut: number
}

export interface ChaosOptions {
  readonly target: string
  readonly seed: number
  /** Share of calls answered 500 by the proxy (0..1). */
  readonly errorRate: number
  /** Share of calls whose answer is dropped after the backend acted (0..1). */
  readonly timeoutRate: number
  /** How long a dropped answer is held before the connection is cut. */
  readonly holdMs?: number
}

/** A number in [0, 1) from the seed and a text: the same inputs, the same number. */
export const seededUnit = (seed: number, text: string): number =>
  createHash('sha256').update(`${seed}\n${text}`).digest().readUInt32BE(0) / 2 ** 32

export const startChaosProxy = async (o: ChaosOptions): Promise<ChaosProxy> => {
  const upstream = new URL(o.target)
  const holdMs = o.holdMs ?? 300
  const counts: ChaosCounts = { requests: 0, injected500: 0, injectedTimeout: 0, upstreamDown: 0, socketsCut: 0 }
  const seen = new Map<string, number>()
  const sockets = new Map<Duplex, string>()
  let faults = false

  const draw = (req: IncomingMessage): 'pass' | '500' | 'timeout' => {
    if (!faults) return 'pass'
    const id = [req.method, req.url, req.headers.authorization ?? '', req.headers['idempotency-key'] ?? ''].join(' ')
    const n = (seen.get(id) ?? 0) + 1
    seen.set(id, n)
    const u = seededUnit(o.seed, `${id} #${n}`)
    if (u < o.errorRate) return '500'
    if (u < o.errorRate + o.timeoutRate) return 'timeout'
    return 'pass'
  }

  const forward = (req: IncomingMessage, res: ServerResponse, dropAnswer: boolean) => {
    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      if (dropAnswer) {
        // The backend has answered (so it acted); the client never hears it.
        up.resume()
        up.on('end', () => setTimeout(() => req.socket.destroy(), holdMs))
        return
      }
      res.writeHead(up.statusCode ?? 502, up.headers)
      up.pipe(res)
    })
    out.on('error', () => {
      counts.upstreamDown++
      req.socket.destroy()
    })
    req.pipe(out)
  }

  const server: Server = createServer((req, res) => {
    counts.requests++
    const fault = draw(req)
    if (fault === '500') {
      counts.injected500++
      req.resume()
      res.writeHead(500, { 'content-type': 'application/json', connection: 'close' })
      res.end(JSON.stringify({ msg: 'Injected fault' }))
      return
    }
    if (fault === 'timeout') counts.injectedTimeout++
    forward(req, res, fault === 'timeout')
  })

  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    relayUpgrade(upstream, req, socket, head, (client, backend) => {
      sockets.set(client, path)
      const drop = () => {
        sockets.delete(client)
        client.destroy()
        backend.destroy()
      }
      client.on('close', drop)
      backend.on('close', drop)
    })
  })

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    setFaults: (on) => void (faults = on),
    cutSockets: (which) => {
      let n = 0
      for (const [socket, path] of [...sockets])
        if (which(path)) {
          socket.destroy()
          sockets.delete(socket)
          n++
        }
      counts.socketsCut += n
      return n
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets.keys()) socket.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
