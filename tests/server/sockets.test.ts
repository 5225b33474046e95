import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CurrentCandle, CollectiveBonus, Price } from '../../core/domain/entities/market.ts'
import { LiveMintEvent, LiveStakeEvent } from '../../core/domain/entities/mint.ts'
import { BalanceUpdate } from '../../core/domain/entities/user.ts'
import { closed, collect, decode, openSocket, startTestServer, type TestServer } from './support.ts'

let t: TestServer
beforeAll(async () => {
  t = await startTestServer({ priceTickMs: 40 })
})
afterAll(() => t.close())

describe('main socket /api/ws/', () => {
  it('takes the token first, then pushes balance, price and the collective bonus', async () => {
    const s = await t.login(3001)
    const live = await t.socket(s)
    decode(Price, await live.next('price_update'))
    decode(CollectiveBonus, await live.next('global:collective_bonus'))
    decode(Price, await live.next('price_update'))
    live.close()
  })

  it('closes with 4001 and a reason on a bad token', async () => {
    const ws = await openSocket(t.url, '/api/ws/')
    const done = closed(ws)
    ws.send('not-a-token')
    expect(await done).toEqual({ code: 4001, reason: 'Invalid token' })
  })

  it('closes with 4001 on an expired token', async () => {
    const s = await t.login(3002)
    t.clock.advance(16 * 60)
    const ws = await openSocket(t.url, '/api/ws/')
    const done = closed(ws)
    ws.send(s.token)
    expect(await done).toEqual({ code: 4001, reason: 'Token expired' })
  })

  it('pushes user:mint, user:balance and user:staking as they happen', async () => {
    const s = await t.login(3003)
    const live = await t.socket(s)
    const created = (await s.call('POST', '/mint/create', { body: { amount: 50, days: 10 } })).body
    const pendingWire = await live.next('user:mint')
    expect(pendingWire).toMatchObject({ mint_id: created.mint.id, status: 'pending' })
    // The app reads every id as one branded string.
    expect(decode(LiveMintEvent, pendingWire)).toMatchObject({ mint_id: String(created.mint.id), status: 'pending', expected_token: 50 })
    await t.server.markMintPaid(created.mint.id)
    expect(decode(LiveMintEvent, await live.next('user:mint', (d) => d.status === 'active')).mint_id).toBe(String(created.mint.id))
    await s.call('POST', '/staking/create', { body: { mint_id: created.mint.id } })
    expect(decode(LiveStakeEvent, await live.next('user:staking')).status).toBe('active')
    await s.call('POST', '/withdraw/transfer-from-referral-balance', { body: { token_amount: 1 } })
    // The welcome 100 is locked: the sale of 10 is refused, until an operator credit of 20 makes it possible.
    expect((await s.call('POST', '/withdraw/create', { body: { from_ref_balance: false, token_amount: 10, address: '0:' + 'a'.repeat(64) } })).status).toBe(400)
    await t.server.admin.credit(3003, '20')
    await s.call('POST', '/withdraw/create', { body: { from_ref_balance: false, token_amount: 10, address: '0:' + 'a'.repeat(64) } })
    expect(decode(BalanceUpdate, await live.next('user:balance', (d) => Number(d.balance_token) === 110)).locked_balance).toBe(100)
    live.close()
  })

  it('broadcasts global:collective_bonus when the operator changes it', async () => {
    const s = await t.login(3004)
    const live = await t.socket(s)
    await live.next('global:collective_bonus')
    await t.server.admin.setCollectiveBonus('0.25')
    expect(decode(CollectiveBonus, await live.next('global:collective_bonus')).collective_bonus).toBe(0.25)
    await t.server.admin.setCollectiveBonus('0.1')
    live.close()
  })

  it('refuses unknown socket paths', async () => {
    await expect(openSocket(t.url, '/api/ws/nope')).rejects.toThrow()
  })
})

describe('candle socket /api/ws/candles', () => {
  it('streams the 5m candle by default and switches interval on request', async () => {
    const ws = await openSocket(t.url, '/api/ws/candles')
    const live = collect(ws)
    const first = decode(CurrentCandle, await live.next('current_candle'))
    expect(first.interval).toBe('5m')
    ws.send('1h')
    const hourly = decode(CurrentCandle, await live.next('current_candle', (d) => d.interval === '1h'))
    expect(hourly.time % 3600).toBe(0)
    ws.send('7m')
    expect((await live.next('error')).msg).toMatch(/interval/)
    live.close()
  })
})
