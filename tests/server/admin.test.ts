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
})
