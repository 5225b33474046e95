import type { ChildProcess } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { DEV_BOT_TOKEN, runAdminCommand } from '../../server/main.ts'
import { spawnBackend } from '../support/backend-process.ts'
import { call, signInitData, testDatabase } from '../server/support.ts'
import { instancesForFile, register, RETRY_MS } from './instances.ts'

/**
 * Two backends on one PostgreSQL, as behind one address: a write through one reaches the sockets of
 * the other, one instance drives the price and the other relays it, and a lease moves to the survivor
 * when its holder is closed or killed.
 */
const { instance, socketOn, track } = instancesForFile()
const login = async (url: string, telegramId: number) => (await register(url, telegramId)).token

const waitFor = async (what: string, ok: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms
  while (!ok()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** A backend in a process of its own (server/main.ts), to be killed. */
const child = async (db: string): Promise<{ url: string; proc: ChildProcess }> => {
  const started = await spawnBackend({ AXIOM_DB: db, AXIOM_LEASE_RETRY_MS: String(RETRY_MS), PRICE_TICK_MS: '50', BOT_TOKEN: DEV_BOT_TOKEN })
  track({ close: async () => void started.proc.kill('SIGKILL') })
  return started
}

describe('two backends on one PostgreSQL', () => {
  it('a bond paid through A reaches the socket the user holds on B, once, with the balances of both sides', async () => {
    const db = await testDatabase()
    const a = await instance(db)
    const b = await instance(db)
    const referrerToken = await login(a.url, 9501)
    const refCode = (await call(a.url, 'GET', '/user/me', { token: referrerToken })).body.ref_code as string
    const buyer = await call(a.url, 'POST', '/auth/register', {
      body: { init_data: signInitData({ id: 9502 }, Math.floor(Date.now() / 1000)), ref_code: refCode },
    })
    const buyerToken = buyer.body.token as string
    const onB = await socketOn(b.url, buyerToken)
    const referrerOnB = await socketOn(b.url, referrerToken)

    const created = await call(a.url, 'POST', '/mint/create', { token: buyerToken, body: { amount: 100, days: 10 } })
    expect(created.status).toBe(200)
    const mintId = created.body.mint.id
    expect((await onB.next('user:mint', (m) => m.id === mintId)).status).toBe('pending')

    await a.markMintPaid(mintId)
    expect((await onB.next('user:mint', (m) => m.id === mintId && m.status === 'active')).amount_token).toBe('100')
    // The referrer's bonus reaches their socket on B too.
    const bonus = await referrerOnB.next('user:balance', (u) => u.referral_balance !== '0')
    expect(Number(bonus.referral_balance)).toBeGreaterThan(0)
    // Paid once: a second payment is refused, and B's socket hears of one activation only.
    await expect(b.markMintPaid(mintId)).rejects.toThrow(/not pending/)

    // A setting changed on A is broadcast by B.
    await a.admin.setCollectiveBonus('0.3')
    expect((await onB.next('global:collective_bonus', (d) => d.collective_bonus !== '0.1')).collective_bonus).toBe('0.3')
    // That broadcast was caused after the refused payment, so a second activation would have reached B before it.
    expect(onB.events.filter((e) => e.event === 'user:mint' && e.data.id === mintId && e.data.status === 'active')).toHaveLength(0)
    // So is a credit by the operator's CLI, a process of its own on the same database.
    await runAdminCommand(db, ['credit', '9502', '7', 'task_balance'])
    expect((await onB.next('user:balance', (u) => u.task_balance === '7')).task_balance).toBe('7')
  })

  it('one instance drives the price, the other relays it; when the driver closes, the other takes over', async () => {
    const db = await testDatabase()
    const a = await instance(db)
    const b = await instance(db)
    expect([a.drivesPrice(), b.drivesPrice()]).toEqual([true, false])
    const token = await login(b.url, 9601)
    const onB = await socketOn(b.url, token)
    await onB.next('price_update')
    await onB.next('price_update')

    const watcherA = await a.lease('chain-watcher')
    const watcherB = await b.lease('chain-watcher')
    expect([watcherA.held(), watcherB.held()]).toEqual([true, false])
    let takenOver = 0
    watcherB.onAcquired(() => takenOver++)

    await a.close()
    await waitFor('B drives the price', () => b.drivesPrice(), 10 * RETRY_MS + 2_000)
    await waitFor('B holds the watcher lease', () => watcherB.held())
    expect(takenOver).toBe(1)
    onB.events.length = 0
    await onB.next('price_update', () => true, 2_000)
  })

  it('a killed instance gives up its leases: the survivor drives the price', async () => {
    const db = await testDatabase()
    const killed = await child(db)
    const b = await instance(db)
    expect(b.drivesPrice()).toBe(false)
    // B's socket hears the ticks A drives.
    const onB = await socketOn(b.url, await login(b.url, 9701))
    await onB.next('price_update')
    await onB.next('price_update')
    // A registered user on A is seen by B: one database.
    const token = await login(killed.url, 9702)
    expect((await call(b.url, 'GET', '/user/me', { token })).status).toBe(200)

    killed.proc.kill('SIGKILL')
    await waitFor('B drives the price after A was killed', () => b.drivesPrice(), 10_000)
    onB.events.length = 0
    await onB.next('price_update', () => true, 2_000)
  })
})
