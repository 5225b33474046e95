import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { audit, auditEntries } from '../../server/domain/audit.ts'
import { startTestServer, type TestServer } from './support.ts'

/**
 * The audit log is append-only in the database itself: whoever holds a connection (the backend, the
 * admin CLI, an operator's psql) can add an entry but not change or delete one. Runs on SQLite and on
 * PostgreSQL (the server-postgres project runs this folder again).
 */
let t: TestServer
beforeAll(async () => {
  t = await startTestServer()
})
afterAll(() => t.close())

describe('the audit log', () => {
  it('takes new entries, and refuses to change or delete one', async () => {
    const ctx = { ...t.server.ctx, actor: 'operator:alice' }
    await audit(ctx, 'price.set', null, { priceNano: 25_000_000n })
    const [entry] = await auditEntries(ctx, { event: 'price.set' })
    expect(entry).toMatchObject({ actor: 'operator:alice', event: 'price.set', subject: null, detail: { priceNano: '25000000' } })

    await expect(t.server.ctx.engine.run("UPDATE audit_log SET actor = 'operator:mallory'")).rejects.toThrow(/append-only/)
    await expect(t.server.ctx.engine.run('DELETE FROM audit_log')).rejects.toThrow(/append-only/)
    expect((await auditEntries(ctx, { event: 'price.set' })).map((e) => e.actor)).toEqual(['operator:alice'])
  })
})
