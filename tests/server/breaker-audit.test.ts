import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recordBreaker } from '../../server/chain/payout-breaker.ts'
import { auditEntries } from '../../server/domain/audit.ts'
import { startTestServer, type TestServer } from './support.ts'

/** The payout breaker on the audit log: its trip, every change of why it holds, and its clearing; nothing while nothing changes. */
let t: TestServer
beforeAll(async () => {
  t = await startTestServer()
})
afterAll(() => t.close())

describe('the payout breaker on the audit log', () => {
  it('records a trip, each change of its causes while it holds, and its clearing', async () => {
    const ctx = t.server.ctx
    const record = (...causes: string[]) => recordBreaker(ctx, { causes, at: ctx.now() })
    await record()
    await record('watcher behind by 120 s')
    await record('watcher behind by 120 s')
    await record('treasury below its reserve', 'watcher behind by 120 s')
    await record('watcher behind by 120 s', 'treasury below its reserve')
    await record('treasury below its reserve')
    await record()
    const entries = (await auditEntries(ctx, { event: 'breaker.' })).map((e) => [e.event, e.detail])
    expect(entries).toEqual([
      ['breaker.tripped', { causes: ['watcher behind by 120 s'] }],
      ['breaker.changed', { was: ['watcher behind by 120 s'], causes: ['treasury below its reserve', 'watcher behind by 120 s'] }],
      ['breaker.changed', { was: ['watcher behind by 120 s', 'treasury below its reserve'], causes: ['treasury below its reserve'] }],
      ['breaker.cleared', { was: ['treasury below its reserve'] }],
    ])
  })
})
