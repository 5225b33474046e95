import { createServer, connect, type Server, type Socket } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../server/main.ts'
import { testDatabase } from '../server/support.ts'

/**
 * /ready with a database that hangs rather than refuses: the backend reaches PostgreSQL through a
 * TCP relay that, once stalled, passes no byte back (a network that drops the database's answers,
 * or a server wedged on a lock). The probe must still answer, 503, within its time limit.
 */

interface StallingRelay {
  readonly port: number
  /** From now on, nothing the database sends reaches the backend (the connections stay open). */
  stall(): void
  /** Closes every relayed connection and the relay. */
  close(): Promise<void>
}

const startRelay = async (target: { host: string; port: number }): Promise<StallingRelay> => {
  let stalled = false
  const sockets = new Set<Socket>()
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host)
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('error', () => undefined)
      s.on('close', () => sockets.delete(s))
    }
    client.on('data', (b) => upstream.write(b))
    upstream.on('data', (b) => {
      if (!stalled) client.write(b)
    })
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const address = server.address()
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    stall: () => {
      stalled = true
    },
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>((r) => server.close(() => r()))
    },
  }
}

const READY_TIMEOUT_MS = 500
let server: RunningServer | null = null
let relay: StallingRelay | null = null
afterAll(async () => {
  // The relay first: the backend's stalled connections then fail, and it can close.
  await relay?.close()
  await server?.close().catch(() => undefined)
})

describe('/ready when PostgreSQL hangs', () => {
  it('answers 503 within its time limit, and /health still 200', async () => {
    const db = new URL(await testDatabase(':memory:'))
    relay = await startRelay({ host: db.hostname, port: Number(db.port || 5432) })
    db.hostname = '127.0.0.1'
    db.port = String(relay.port)
    server = await startServer({ port: 0, dbPath: db.toString(), priceTickMs: 60_000, readyTimeoutMs: READY_TIMEOUT_MS })

    const ready = await fetch(`${server.url}/ready`)
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready', db: 'postgres' }])

    relay.stall()
    const began = Date.now()
    const stalled = await fetch(`${server.url}/ready`, { signal: AbortSignal.timeout(5_000) })
    const took = Date.now() - began
    expect([stalled.status, await stalled.json()]).toEqual([503, { status: 'unavailable', msg: 'The database does not answer' }])
    expect(took).toBeGreaterThanOrEqual(READY_TIMEOUT_MS - 50)
    expect(took).toBeLessThan(READY_TIMEOUT_MS + 2_000)
    expect((await fetch(`${server.url}/health`)).status).toBe(200)
  })
})
