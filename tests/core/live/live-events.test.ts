import { describe, expect, it } from 'vitest'
import { decodeLiveEvent } from '../../../core/index.ts'
import { aMint } from '../fakes/records.ts'

const message = (event: string, data: unknown) => JSON.stringify({ event, data })
const { id: _id, ...mintFields } = aMint({ status: 'active', amount_token: 250 })

describe('decodeLiveEvent', () => {
  it('reads a price update', () => {
    expect(decodeLiveEvent(message('price_update', { price: '0.012', price_change_24h: 1.5, price_change_30d: -2 }))).toEqual({
      event: 'price_update',
      data: { price: 0.012, price_change_24h: 1.5, price_change_30d: -2 },
    })
  })

  it('reads the global collective bonus', () => {
    expect(decodeLiveEvent(message('global:collective_bonus', { collective_bonus: 0.7 }))).toEqual({
      event: 'global:collective_bonus',
      data: { collective_bonus: 0.7 },
    })
  })

  it('reads a balance update', () => {
    const data = { balance_token: 10, task_balance: 2, referral_balance: 3, hold_bonus: 0.1, investment_bonus: 0.2 }

    expect(decodeLiveEvent(message('user:balance', data))).toEqual({ event: 'user:balance', data })
  })

  it('reads a mint: mint_id becomes id and amount_token is copied to expected_token', () => {
    const event = decodeLiveEvent(message('user:mint', { ...mintFields, mint_id: 77 }))

    expect(event).toEqual({ event: 'user:mint', data: { ...mintFields, id: '77', expected_token: 250 } })
    expect(event?.data).not.toHaveProperty('mint_id')
  })

  it('reads a stake: staking_id becomes id and amount_token is copied to expected_token', () => {
    const event = decodeLiveEvent(message('user:staking', { ...mintFields, staking_id: 'st-9' }))

    expect(event).toEqual({ event: 'user:staking', data: { ...mintFields, id: 'st-9', expected_token: 250 } })
  })

  it('reads a current candle', () => {
    const data = { time: 1_700_000_000, open: 1, high: 2, low: 0.5, close: 1.5, interval: '5m' }

    expect(decodeLiveEvent(message('current_candle', data))).toEqual({ event: 'current_candle', data })
  })

  it("reads a sale's payout told sent, then paid (chain:payment, the reference backend's own event)", () => {
    // As the backend writes it (server/http/wire-format.ts): the withdrawal's id, the payout's state.
    expect(decodeLiveEvent('{"event":"chain:payment","data":{"kind":"sale","id":41,"state":"sent"}}')).toEqual({
      event: 'chain:payment',
      data: { kind: 'sale', id: 41, state: 'sent' },
    })
    expect(decodeLiveEvent('{"event":"chain:payment","data":{"kind":"sale","id":41,"state":"paid"}}')).toEqual({
      event: 'chain:payment',
      data: { kind: 'sale', id: 41, state: 'paid' },
    })
  })

  it("reads a bond's payment seen and withdrawn", () => {
    expect(decodeLiveEvent(message('chain:payment', { kind: 'bond', id: 9, state: 'seen' }))).toEqual({ event: 'chain:payment', data: { kind: 'bond', id: 9, state: 'seen' } })
    expect(decodeLiveEvent(message('chain:payment', { kind: 'bond', id: 9, state: 'withdrawn' }))?.data).toEqual({ kind: 'bond', id: 9, state: 'withdrawn' })
  })

  it.each([
    ['a sale told seen', { kind: 'sale', id: 41, state: 'seen' }],
    ['a sale told withdrawn', { kind: 'sale', id: 41, state: 'withdrawn' }],
    ['a bond told paid', { kind: 'bond', id: 9, state: 'paid' }],
    ['a bond told sent', { kind: 'bond', id: 9, state: 'sent' }],
    ['a sale with a text id', { kind: 'sale', id: '41', state: 'paid' }],
  ])('drops a payment signal of no kind the backend sends: %s', (_, data) => {
    expect(decodeLiveEvent(message('chain:payment', data))).toBeNull()
  })

  it.each([
    ['bad JSON', '{"event":'],
    ['a token echo', 'token-1'],
    ['an unknown event', message('user:levelup', { level: 2 })],
    ['an event with no data', JSON.stringify({ event: 'price_update' })],
    ['a payload the schema refuses', message('price_update', { price: 'cheap' })],
    ['a mint without mint_id', message('user:mint', mintFields)],
    ['a mint with an unknown status', message('user:mint', { ...mintFields, mint_id: 1, status: 'exploded' })],
    ['a JSON array', '[]'],
  ])('drops %s', (_, text) => {
    expect(decodeLiveEvent(text)).toBeNull()
  })

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('drops an event named %s', (name) => {
    expect(decodeLiveEvent(JSON.stringify({ event: name, data: {} }))).toBeNull()
  })
})
