import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DRIFT, runAdminCommand } from '../../server/admin.ts'
import { startTestServer, testDatabase } from './support.ts'

const dir = mkdtempSync(join(tmpdir(), 'axiom-admin-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('admin commands on a shared database file', () => {
  it('a running server sees maintenance, membership and credits from the CLI at once', async () => {
    const dbPath = await testDatabase(join(dir, 'axiom.db'))
    const t = await startTestServer({ dbPath })
    const s = await t.login(8001)
    const mint = (await s.call('POST', '/mint/create', { body: { amount: 10, days: 10 } })).body.mint.id

    expect(await runAdminCommand(dbPath, ['member', '8001'])).toMatch(/true/)
    expect((await s.call('GET', '/user/me')).body.community_participation).toBe(true)
    await runAdminCommand(dbPath, ['credit', '8001', '2.5', 'task_balance'])
    expect((await s.call('GET', '/user/me')).body.task_balance).toBe('2.5')
    expect(await runAdminCommand(dbPath, ['mark-paid', String(mint)])).toBe(`bond #${mint} is active`)
    expect((await s.call('GET', '/mint/')).body.items[0].status).toBe('active')
    const lines: string[] = []
    expect(await runAdminCommand(dbPath, ['users'], (l) => void lines.push(l))).toBe('')
    expect(lines.map((l) => JSON.parse(l))).toEqual([expect.objectContaining({ telegram_id: '8001', task_balance: '2.5' })])

    await runAdminCommand(dbPath, ['maintenance', 'on'])
    expect((await s.call('GET', '/user/me')).status).toBe(503)
    // The npm script itself, as an operator runs it.
    execFileSync(process.execPath, ['--import', 'tsx', 'server/admin.ts', 'maintenance', 'off'], { env: { ...process.env, AXIOM_DB: dbPath } })
    expect((await s.call('GET', '/user/me')).status).toBe(200)
    expect(await runAdminCommand(dbPath, ['nonsense'])).toMatch(/^usage/)
    await t.close()
  })

  it('users streams one JSON line per user, in id order, a page at a time', async () => {
    const dbPath = await testDatabase(join(dir, 'users.db'))
    const t = await startTestServer({ dbPath })
    for (let i = 0; i < 7; i++) await t.login(8100 + i)
    const ids: string[] = []
    for await (const u of t.server.admin.eachUser(3)) ids.push(u.telegram_id)
    expect(ids).toEqual(['8100', '8101', '8102', '8103', '8104', '8105', '8106'])
    await t.close()
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'server/admin.ts', 'users'], { env: { ...process.env, AXIOM_DB: dbPath } }).toString()
    expect(out.trim().split('\n').map((l) => JSON.parse(l).telegram_id)).toEqual(ids)
  })

  it('verify-totals finds the running totals equal to the rows, and reports a drift', async () => {
    const dbPath = await testDatabase(join(dir, 'totals.db'))
    const t = await startTestServer({ dbPath })
    const s = await t.login(8201)
    const mint = (await s.call('POST', '/mint/create', { body: { amount: 10, days: 10 } })).body.mint.id
    await t.server.markMintPaid(mint, 2_000_000_000n)
    expect(await runAdminCommand(dbPath, ['verify-totals'])).toBe('platform totals agree with the rows')
    await t.server.ctx.engine.run('UPDATE platform_totals SET locked = locked + 5 WHERE shard = 3')
    expect(await runAdminCommand(dbPath, ['verify-totals'])).toBe(`${DRIFT}locked: kept 10000000005, recomputed 10000000000, drift 5`)
    await t.close()
  })

  it('revoke ends every session of a user at once, announced to the running server; other users go on', async () => {
    const dbPath = await testDatabase(join(dir, 'revoke.db'))
    const t = await startTestServer({ dbPath })
    // The command reads the real clock (whether a session is still live): the server's reads the same time.
    t.clock.now = Math.floor(Date.now() / 1000)
    const phone = await t.login(8301)
    const laptop = await t.login(8301)
    const someoneElse = await t.login(8302)
    // Both sessions are in use (the server keeps them as valid) when the operator revokes them.
    for (const s of [phone, laptop]) expect((await s.call('GET', '/user/me')).status).toBe(200)
    expect(await t.server.admin.revokeSessions(8301)).toBe(2)
    const revoked = { status: 401, body: { msg: 'Session was revoked' } }
    for (const s of [phone, laptop]) {
      expect(await s.call('GET', '/user/me')).toMatchObject(revoked)
      expect((await t.call('POST', '/auth/refresh', { body: { refresh_token: s.refresh } })).status).toBe(401)
    }
    expect((await someoneElse.call('GET', '/user/me')).status).toBe(200)
    // The command, from another process's view of the same database: a new session, then none.
    const again = await t.login(8301)
    expect(await runAdminCommand(dbPath, ['revoke', '8301'])).toBe('revoked 1 session of user 8301')
    expect(await again.call('GET', '/user/me')).toMatchObject(revoked)
    expect((await t.call('POST', '/auth/refresh', { body: { refresh_token: again.refresh } })).status).toBe(401)
    expect(await runAdminCommand(dbPath, ['revoke', '8301'])).toBe('revoked 0 sessions of user 8301')
    // A session past its end is not counted: nothing of it works any more.
    const ended = await t.login(8302)
    t.clock.advance(31 * 86_400)
    const current = await t.login(8302)
    expect(await t.server.admin.revokeSessions(8302)).toBe(1)
    expect((await t.call('POST', '/auth/refresh', { body: { refresh_token: current.refresh } })).status).toBe(401)
    expect((await t.call('POST', '/auth/refresh', { body: { refresh_token: ended.refresh } })).status).toBe(401)
    t.clock.advance(-31 * 86_400)
    expect(await runAdminCommand(dbPath, ['revoke'])).toMatch(/^usage/)
    await expect(runAdminCommand(dbPath, ['revoke', '999999'])).rejects.toThrow()
    // As an operator runs it.
    const third = await t.login(8301)
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'server/admin.ts', 'revoke', '8301'], { env: { ...process.env, AXIOM_DB: dbPath } }).toString()
    expect(out.trim()).toBe('revoked 1 session of user 8301')
    expect((await t.call('POST', '/auth/refresh', { body: { refresh_token: third.refresh } })).status).toBe(401)
    expect((await someoneElse.call('GET', '/user/me')).status).toBe(200)
    await t.close()
  })
})
