import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  type CurrentCandle,
  type LiveEvent,
  openCandleSocket,
  openMainSocket,
  type ReconnectingSocket,
} from '../../../core/index.ts'
import { FakeSocketFactory } from '../fakes/fake-socket-factory.ts'
import { MemorySessionStore } from '../fakes/memory-stores.ts'
import { socketTime } from '../fakes/socket-time.ts'

let time: ReturnType<typeof socketTime>
const opened: ReconnectingSocket[] = []

beforeEach(() => {
  vi.useFakeTimers()
  time = socketTime()
})
afterEach(() => {
  for (const s of opened.splice(0)) s.close()
  vi.useRealTimers()
})

const candle = (interval?: string, close = 1.5) => ({ time: 1_700_000_000, open: 1, high: 2, low: 0.5, close, ...(interval ? { interval } : {}) })

describe('openMainSocket', () => {
  const setup = () => {
    const sockets = new FakeSocketFactory()
    const session = new MemorySessionStore({ auth_token: 'token-1', refresh_token: 'refresh-1' })
    const events: LiveEvent[] = []
    let refreshes = 0
    const socket = openMainSocket(
      {
        sockets,
        session,
        refreshSession: async () => {
          refreshes++
          session.set('auth_token', 'token-2')
        },
      },
      (e) => events.push(e),
    )
    opened.push(socket)
    return { sockets, session, events, socket, refreshes: () => refreshes }
  }

  it('opens /api/ws/, sends the access token first, and hands on decoded events only', async () => {
    const s = setup()
    await time.flush()
    s.sockets.last.accept()
    await time.flush()

    s.sockets.last.deliverEvent('global:collective_bonus', { collective_bonus: 0.4 })
    s.sockets.last.deliver('not json')
    s.sockets.last.deliverEvent('user:unknown', {})

    expect(s.sockets.last.path).toBe('/api/ws/')
    expect(s.sockets.last.sent).toEqual(['token-1'])
    expect(s.events).toEqual([{ event: 'global:collective_bonus', data: { collective_bonus: 0.4 } }])
  })

  it('after the server refuses the token (4001), refreshes the session and reconnects with the new token', async () => {
    const s = setup()
    await time.flush()
    s.sockets.last.accept()
    await time.flush()

    s.sockets.last.drop(4001, 'token expired')
    await time.advance(1100)
    s.sockets.last.accept()
    await time.flush()

    expect(s.refreshes()).toBe(1)
    expect(s.sockets.connections).toHaveLength(2)
    expect(s.sockets.last.sent).toEqual(['token-2'])
  })

  it('a refresh that never settles is waited on for 5 s (§9), then the socket reconnects 1 s later with the token it has', async () => {
    const sockets = new FakeSocketFactory()
    const session = new MemorySessionStore({ auth_token: 'token-1', refresh_token: 'refresh-1' })
    let refreshes = 0
    // The refresh call hangs (no answer, no error): the socket must not wait on it for ever.
    const socket = openMainSocket({ sockets, session, refreshSession: () => (refreshes++, new Promise(() => {})) }, () => {})
    opened.push(socket)
    await time.flush()
    sockets.last.accept()
    await time.flush()

    sockets.last.drop(4001, 'token expired')
    await time.flush()
    const refusedAt = time.elapsed()
    session.set('auth_token', 'token-from-another-tab')
    await time.advance(5_900)
    expect(refreshes).toBe(1)
    expect(sockets.connections).toHaveLength(1)

    await time.advance(200)
    expect(sockets.connections).toHaveLength(2)
    expect(sockets.last.openedAt - refusedAt).toBeGreaterThanOrEqual(6_000)
    sockets.last.accept()
    await time.flush()
    expect(sockets.last.sent).toEqual(['token-from-another-tab'])
  })

  it('waits for a session before sending anything', async () => {
    const s = setup()
    s.session.remove('auth_token')
    await time.flush()
    s.sockets.last.accept()
    await time.advance(1500)
    expect(s.sockets.last.sent).toEqual([])

    s.session.set('auth_token', 'fresh')
    await time.advance(1000)

    expect(s.sockets.last.sent).toEqual(['fresh'])
  })
})

describe('openCandleSocket', () => {
  const setup = () => {
    const sockets = new FakeSocketFactory()
    const candles: CurrentCandle[] = []
    const socket = openCandleSocket({ sockets }, (c) => candles.push(c))
    opened.push(socket)
    return { sockets, candles, socket }
  }

  it('opens /api/ws/candles and asks for 5m candles by default', async () => {
    const s = setup()
    await time.flush()
    s.sockets.last.accept()
    await time.flush()

    expect(s.sockets.last.path).toBe('/api/ws/candles')
    expect(s.sockets.last.sent).toEqual(['5m'])
  })

  it('switching the interval sends the new one and drops candles of the old one', async () => {
    const s = setup()
    await time.flush()
    s.sockets.last.accept()
    await time.flush()

    s.socket.switchInterval('1h')
    await time.flush()
    s.sockets.last.deliverEvent('current_candle', candle('5m', 9))
    s.sockets.last.deliverEvent('current_candle', candle('1h', 2))
    s.sockets.last.deliverEvent('current_candle', candle(undefined, 3))
    s.sockets.last.deliverEvent('price_update', { price: 1, price_change_24h: 0, price_change_30d: 0 })

    expect(s.sockets.last.sent).toEqual(['5m', '1h'])
    expect(s.candles.map((c) => c.close)).toEqual([2, 3])
  })

  it('asks for the current interval again after reconnecting', async () => {
    const s = setup()
    await time.flush()
    s.sockets.last.accept()
    await time.flush()
    s.socket.switchInterval('4h')
    await time.flush()

    s.sockets.last.drop(1006)
    await time.advance(1100)
    s.sockets.last.accept()
    await time.flush()

    expect(s.sockets.last.sent).toEqual(['4h'])
  })

  it('switching while the socket is down sends nothing stale later: the reconnect asks for the latest interval once', async () => {
    const s = setup()
    await time.flush()
    s.sockets.last.accept()
    await time.flush()
    s.sockets.last.drop(1006)
    s.socket.switchInterval('1h')
    s.socket.switchInterval('4h')
    await time.advance(1100)
    s.sockets.last.accept()
    await time.advance(10_000)

    expect(s.sockets.last.sent).toEqual(['4h'])
  })

  it('can start on another interval', async () => {
    const sockets = new FakeSocketFactory()
    const socket = openCandleSocket({ sockets }, () => {}, '1d')
    opened.push(socket)
    await time.flush()
    sockets.last.accept()
    await time.flush()

    expect(sockets.last.sent).toEqual(['1d'])
  })
})
