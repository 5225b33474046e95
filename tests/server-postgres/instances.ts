import { afterAll, expect } from 'vitest'
import { startServer, type RunningServer } from '../../server/main.ts'
import { call, collect, openSocket, signInitData, type LiveSocket } from '../server/support.ts'

/** How soon an instance takes a lease its holder left: short, so the tests' failovers are quick. */
export const RETRY_MS = 100

/**
 * Backends on one PostgreSQL, as behind one address, for one test file: what the file opens
 * (instances, sockets, processes) is closed after all its tests, last opened first.
 */
export const instancesForFile = () => {
  const open: Array<{ close(): Promise<void> }> = []
  afterAll(async () => {
    for (const s of open.reverse()) await s.close().catch(() => undefined)
  })
  return {
    /** Closes `c` after the file's tests. */
    track: <T extends { close(): Promise<void> }>(c: T): T => {
      open.push(c)
      return c
    },
    /** An instance on `db` with a fast price tick and lease retry, and no welcome balance. */
    instance: async (db: string): Promise<RunningServer> => {
      const s = await startServer({ port: 0, dbPath: db, priceTickMs: 50, leaseRetryMs: RETRY_MS, welcomeBalanceNano: 0n })
      open.push(s)
      return s
    },
    /** The main socket of `token` on the instance at `url`, once it has its first balance. */
    socketOn: async (url: string, token: string): Promise<LiveSocket> => {
      const live = collect(await openSocket(url, '/api/ws/'))
      live.ws.send(token)
      await live.next('user:balance')
      open.push({ close: async () => live.close() })
      return live
    },
  }
}

/** Signs in Telegram user `telegramId` through the instance at `url`: a new session's tokens. */
export const register = async (url: string, telegramId: number): Promise<{ token: string; refresh: string }> => {
  const res = await call(url, 'POST', '/auth/register', { body: { init_data: signInitData({ id: telegramId }, Math.floor(Date.now() / 1000)) } })
  expect(res.status).toBe(200)
  return res.body as { token: string; refresh: string }
}
