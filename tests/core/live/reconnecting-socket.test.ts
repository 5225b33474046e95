import { Duration, Schedule } from 'effect'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openReconnectingSocket, type ReconnectingSocket, type SocketStatus } from '../../../core/index.ts'
import { FakeSocketFactory } from '../fakes/fake-socket-factory.ts'
import { socketTime } from '../fakes/socket-time.ts'

let time: ReturnType<typeof socketTime>
let socket: ReconnectingSocket | null = null

beforeEach(() => {
  vi.useFakeTimers()
  time = socketTime()
})
afterEach(() => {
  socket?.close()
  socket = null
  vi.useRealTimers()
})

const open = (o: { token?: () => string | null; reconnectPolicy?: Schedule.Schedule<unknown>; onAuthFailed?: () => Promise<unknown> } = {}) => {
  const sockets = new FakeSocketFactory()
  const received: string[] = []
  const statuses: SocketStatus[] = []
  socket = openReconnectingSocket({
    sockets,
    path: '/api/ws/',
    firstMessage: o.token ?? (() => 'token-1'),
    onMessage: (text) => received.push(text),
    onStatus: (s) => statuses.push(s),
    ...(o.reconnectPolicy ? { reconnectPolicy: o.reconnectPolicy } : {}),
    ...(o.onAuthFailed ? { onAuthFailed: o.onAuthFailed } : {}),
  })
  const opensAt = () => sockets.connections.map((c) => c.openedAt - (Date.now() - time.elapsed()))
  return { sockets, received, statuses, socket, opensAt }
}

describe('openReconnectingSocket', () => {
  it('sends the token first once open, then passes messages on', async () => {
    const s = open()
    await time.flush()
    expect(s.socket.status()).toBe('connecting')

    s.sockets.last.accept()
    await time.flush()
    s.sockets.last.deliver('{"event":"price_update"}')

    expect(s.sockets.connections.map((c) => c.path)).toEqual(['/api/ws/'])
    expect(s.sockets.last.sent).toEqual(['token-1'])
    expect(s.statuses).toEqual(['connecting', 'open'])
    expect(s.received).toEqual(['{"event":"price_update"}'])
  })

  it('waits for a token, looking again every second', async () => {
    let token: string | null = null
    const s = open({ token: () => token })
    await time.flush()
    s.sockets.last.accept()
    await time.to(2500)
    expect(s.sockets.last.sent).toEqual([])
    expect(s.socket.status()).toBe('connecting')

    token = 'late-token'
    await time.to(3000)

    expect(s.sockets.last.sent).toEqual(['late-token'])
    expect(s.socket.status()).toBe('open')
  })

  it('gives up on a token after 5 s: closes that connection and tries again', async () => {
    const s = open({ token: () => null })
    await time.flush()
    s.sockets.last.accept()
    await time.to(4900)
    expect(s.sockets.connections).toHaveLength(1)

    await time.to(5100)
    expect(s.sockets.connections[0]!.closedBy).toBe('client')
    await time.to(6100)

    expect(s.sockets.connections).toHaveLength(2)
    expect(s.sockets.connections[0]!.sent).toEqual([])
  })

  it('closes an attempt that does not open within 5 s, and tries again', async () => {
    const s = open()
    await time.to(5100)

    expect(s.sockets.connections[0]!.closedBy).toBe('client')
    await time.to(6100)
    expect(s.sockets.connections).toHaveLength(2)
  })

  it('reconnects 1 s after an open connection closes, and sends the token again', async () => {
    const s = open()
    await time.flush()
    s.sockets.last.accept()
    await time.to(10_000)
    s.sockets.last.drop(1006)
    expect(s.socket.status()).toBe('closed')

    await time.to(10_900)
    expect(s.sockets.connections).toHaveLength(1)
    await time.to(11_100)
    expect(s.sockets.connections).toHaveLength(2)
    s.sockets.last.accept()
    await time.flush()

    expect(s.sockets.last.sent).toEqual(['token-1'])
    expect(s.statuses).toEqual(['connecting', 'open', 'closed', 'connecting', 'open'])
  })

  it('backs off failed attempts by the §9 policy: 1 s, 2 s, 4 s, 8 s', async () => {
    const s = open()
    for (let t = 0; t <= 16_000; t += 100) {
      await time.to(t)
      if (s.sockets.last.state === 'connecting') s.sockets.last.drop(1006)
    }

    expect(s.opensAt().map((t) => Math.round(t / 100) * 100)).toEqual([0, 1000, 3000, 7000, 15_000])
  })

  it('backs off by the policy it is given', async () => {
    const s = open({ reconnectPolicy: Schedule.spaced(Duration.millis(300)) })
    for (let t = 0; t <= 1000; t += 50) {
      await time.to(t)
      if (s.sockets.last.state === 'connecting') s.sockets.last.drop(1006)
    }

    expect(s.opensAt().map((t) => Math.round(t / 50) * 50)).toEqual([0, 300, 600, 900])
  })

  it('starts the backoff afresh once a connection was open', async () => {
    const s = open()
    for (let t = 0; t < 3000; t += 100) {
      await time.to(t)
      if (s.sockets.last.state === 'connecting') s.sockets.last.drop(1006)
    }
    await time.to(3050)
    expect(s.sockets.connections).toHaveLength(3)
    s.sockets.last.accept()
    await time.to(20_000)
    s.sockets.last.drop(1006)
    await time.to(21_100)

    expect(s.sockets.connections).toHaveLength(4)
  })

  it('on close code 4001 refreshes the session, then reconnects', async () => {
    let settle = () => {}
    const refreshes: number[] = []
    const s = open({
      onAuthFailed: () => {
        refreshes.push(time.elapsed())
        return new Promise<void>((resolve) => (settle = resolve))
      },
    })
    await time.flush()
    s.sockets.last.accept()
    await time.flush()
    s.sockets.last.drop(4001, 'bad token')
    await time.to(5000)
    expect(refreshes).toEqual([0])
    expect(s.sockets.connections).toHaveLength(1)

    settle()
    await time.to(6100)

    expect(s.sockets.connections).toHaveLength(2)
  })

  it('ensureOpen reconnects at once when the socket is closed, and does nothing when open', async () => {
    const s = open()
    await time.flush()
    s.sockets.last.accept()
    await time.flush()
    s.socket.ensureOpen()
    await time.flush()
    expect(s.sockets.connections).toHaveLength(1)

    s.sockets.last.drop(1006)
    await time.advance(100)
    s.socket.ensureOpen()
    await time.flush()

    expect(s.sockets.connections).toHaveLength(2)
    expect(s.sockets.last.openedAt - s.sockets.connections[0]!.openedAt).toBeLessThan(200)
  })

  it('close() closes the connection and stops reconnecting', async () => {
    const s = open()
    await time.flush()
    s.sockets.last.accept()
    await time.flush()

    s.socket.close()
    await time.to(120_000)
    s.socket.ensureOpen()
    await time.flush()

    expect(s.sockets.connections).toHaveLength(1)
    expect(s.sockets.last).toMatchObject({ closedBy: 'client', closeCode: 1000 })
    expect(s.socket.status()).toBe('closed')
    expect(s.statuses.at(-1)).toBe('closed')
  })

  it('send() waits for the socket to open, retrying every 2 s', async () => {
    const s = open()
    await time.flush()
    s.socket.send('subscribe')
    await time.to(2500)
    s.sockets.last.accept()
    await time.to(3900)
    expect(s.sockets.last.sent).toEqual(['token-1'])

    await time.to(4100)
    expect(s.sockets.last.sent).toEqual(['token-1', 'subscribe'])
  })

  it('send() on an open socket sends at once', async () => {
    const s = open()
    await time.flush()
    s.sockets.last.accept()
    await time.flush()

    s.socket.send('5m')
    await time.flush()

    expect(s.sockets.last.sent).toEqual(['token-1', '5m'])
  })

  it('send() gives up after 15 retries', async () => {
    const s = open()
    s.socket.send('too late')
    for (let t = 0; t <= 32_000; t += 500) {
      await time.to(t)
      if (s.sockets.last.state === 'connecting') s.sockets.last.drop(1006)
    }
    s.socket.ensureOpen()
    await time.flush()
    s.sockets.last.accept()
    await time.to(40_000)

    expect(s.sockets.last.sent).toEqual(['token-1'])
  })

  it('does not send a late token on a connection that was closed while waiting', async () => {
    let token: string | null = null
    const s = open({ token: () => token })
    await time.flush()
    s.sockets.last.accept()
    await time.to(1500)
    s.socket.close()
    token = 'late'
    await time.to(3000)
    expect(s.socket.status()).toBe('closed')
    expect(s.statuses.at(-1)).toBe('closed')
    expect(s.sockets.connections.flatMap((c) => c.sent)).toEqual([])
  })

  it('leaves an attempt that is still connecting alone when asked to ensure it is open', async () => {
    const s = open()
    await time.flush()
    expect(s.socket.status()).toBe('connecting')
    s.socket.ensureOpen()
    await time.flush()
    expect(s.sockets.connections).toHaveLength(1)
  })
})
