import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { listenerName } from '../../server/cluster/postgres-cluster.ts'
import { startServer, type RunningServer } from '../../server/main.ts'
import { call, collect, openSocket, signInitData, testDatabase } from '../server/support.ts'

/**
 * NOTIFY is not kept for a listening connection that is gone: an instance whose connection dropped
 * may have missed live events. When it is back, the instance closes its sockets with 1012, so their
 * clients connect again and read the state anew (the app refetches after a drop), and reads its
 * settings again.
 */
const RETRY_MS = 100
const open: Array<{ close(): Promise<void> }> = []
afterAll(async () => {
  for (const s of open.reverse()) await s.close().catch(() => undefined)
})

const instance = async (db: string): Promise<RunningServer> => {
  const s = await startServer({ port: 0, dbPath: db, priceTickMs: 3_600_000, leaseRetryMs: RETRY_MS, welcomeBalanceNano: 0n })
  open.push(s)
  return s
}

describe('an instance whose listening connection dropped', () => {
  it('closes its sockets with 1012 once it listens again; a client that connects again hears what follows', async () => {
    const db = await testDatabase()
    const a = await instance(db)
    const b = await instance(db)
    const reg = await call(a.url, 'POST', '/auth/register', { body: { init_data: signInitData({ id: 9701 }, Math.floor(Date.now() / 1000)) } })
    const token = reg.body.token as string
    const first = collect(await openSocket(b.url, '/api/ws/'))
    first.ws.send(token)
    await first.next('user:balance')
    const closed = new Promise<number>((resolve) => first.ws.once('close', (code) => resolve(code)))

    // The listening connections of this deployment (its schema) are cut, as a network blip would.
    const schema = new URL(db).searchParams.get('options')!.replace(/^.*search_path=/, '')
    const admin = new pg.Client({ connectionString: db })
    await admin.connect()
    try {
      const cut = await admin.query('SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1', [listenerName(schema)])
      expect(cut.rows.length).toBe(2)
    } finally {
      await admin.end()
    }

    expect(await closed).toBe(1012)
    // Connected again, the client hears a change made through the other instance.
    const again = collect(await openSocket(b.url, '/api/ws/'))
    open.push({ close: async () => again.close() })
    again.ws.send(token)
    await again.next('user:balance')
    await a.admin.credit(9701, '5')
    expect((await again.next('user:balance', (u) => u.balance_token === '5')).balance_token).toBe('5')
  })
})
