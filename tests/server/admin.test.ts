import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runAdminCommand } from '../../server/admin.ts'
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
    expect(JSON.parse(await runAdminCommand(dbPath, ['users']))[0]).toMatchObject({ telegram_id: '8001', task_balance: '2.5' })

    await runAdminCommand(dbPath, ['maintenance', 'on'])
    expect((await s.call('GET', '/user/me')).status).toBe(503)
    // The npm script itself, as an operator runs it.
    execFileSync(process.execPath, ['--import', 'tsx', 'server/admin.ts', 'maintenance', 'off'], { env: { ...process.env, AXIOM_DB: dbPath } })
    expect((await s.call('GET', '/user/me')).status).toBe(200)
    expect(await runAdminCommand(dbPath, ['nonsense'])).toMatch(/^usage/)
    await t.close()
  })
})
