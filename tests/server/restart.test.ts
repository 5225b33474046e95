import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { SOME_ADDRESS, startTestServer } from './support.ts'

const dir = mkdtempSync(join(tmpdir(), 'axiom-restart-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('restart with a file database', () => {
  it('loses nothing: users, balances, bonds, links, withdrawals, sessions, settings', async () => {
    const dbPath = join(dir, 'nested', 'axiom.db')
    const first = await startTestServer({ dbPath })
    const s = await first.login(5001)
    await first.server.admin.credit(5001, '1000.000000001', 'referral_balance')
    const mint = (await s.call('POST', '/mint/create', { body: { amount: 7, days: 30 } })).body.mint.id
    await first.server.markMintPaid(mint)
    await s.call('POST', '/farming/create', {
      body: { amount: 1, days: 10, count_activations: 1, from_ref_balance: true, from_task_balance: false, is_multilink: false, is_for_me: true },
    })
    await s.call('POST', '/withdraw/create', { body: { from_ref_balance: true, token_amount: 3, address: SOME_ADDRESS } })
    const snapshot = await first.server.admin.snapshot()
    const me = (await s.call('GET', '/user/me')).body
    await first.close()

    const second = await startTestServer({ dbPath })
    expect(await second.server.admin.snapshot()).toBe(snapshot)
    const again = await second.call('GET', '/user/me', { token: s.token })
    expect(again.body).toEqual(me)
    expect(me.referral_balance).toBe('996.000000001')
    expect((await second.call('POST', '/auth/refresh', { body: { refresh_token: s.refresh } })).status).toBe(200)
    expect((await second.call('GET', '/mint/', { token: s.token })).body.items[0].status).toBe('active')
    await second.close()
  })
})
