import type { AddressInfo } from 'node:net'
import WebSocket, { WebSocketServer } from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocketFactory } from '../../adapters/browser/websocket-factory.ts'
import { WsSocketFactory } from '../../adapters/node/ws-socket-factory.ts'
import { socketUrl, type WebSocketLike } from '../../adapters/shared/socket-connection.ts'
import type { SocketConnection, SocketFactory, SocketHandlers } from '../../core/ports/socket.port.ts'

/** Records what the factory reports, and lets a test wait for it. */
class Recorder implements SocketHandlers {
  readonly messages: string[] = []
  opened = false
  closed: { code: number; reason: string } | null = null
  private waiters: Array<() => void> = []

  onOpen(): void {
    this.opened = true
    this.wake()
  }
  onMessage(text: string): void {
    this.messages.push(text)
    this.wake()
  }
  onClose(code: number, reason: string): void {
    this.closed = { code, reason }
    this.wake()
  }
  until(done: () => boolean): Promise<void> {
    if (done()) return Promise.resolve()
    return new Promise((resolve) => {
      const check = () => (done() ? resolve() : this.waiters.push(check))
      this.waiters.push(check)
    })
  }
  private wake(): void {
    const waiters = this.waiters
    this.waiters = []
    for (const w of waiters) w()
  }
}

let server: WebSocketServer
let origin: string
let latest: Promise<{ socket: WebSocket; path: string }>
let accept!: (value: { socket: WebSocket; path: string }) => void
const nextConnection = () => (latest = new Promise((resolve) => (accept = resolve)))

beforeAll(async () => {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  server.on('connection', (socket, req) => accept({ socket, path: req.url ?? '' }))
})

afterAll(async () => {
  for (const client of server.clients) client.terminate()
  await new Promise((resolve) => server.close(resolve))
})

const factories: Array<[string, (origin: string) => SocketFactory]> = [
  ['WsSocketFactory', (at) => new WsSocketFactory(at)],
  [
    // Node 20 has no global WebSocket; the `ws` client speaks the same WHATWG interface as a browser's.
    'WebSocketFactory',
    (at) => new WebSocketFactory({ origin: at, WebSocket: WebSocket as unknown as new (url: string) => WebSocketLike }),
  ],
]

const deadOrigin = async (): Promise<string> => {
  const probe = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => probe.once('listening', () => resolve()))
  const port = (probe.address() as AddressInfo).port
  await new Promise((resolve) => probe.close(resolve))
  return `http://127.0.0.1:${port}`
}

describe.each(factories)('%s', (_name, makeFactory) => {
  const open = async (path = '/api/ws/') => {
    nextConnection()
    const handlers = new Recorder()
    const connection: SocketConnection = makeFactory(origin).open(path, handlers)
    const sendBeforeOpen = connection.send('too early')
    await handlers.until(() => handlers.opened)
    const { socket, path: seenPath } = await latest
    return { handlers, connection, socket, seenPath, sendBeforeOpen }
  }

  it('opens on the given path and exchanges text both ways', async () => {
    const { handlers, connection, socket, seenPath, sendBeforeOpen } = await open('/api/ws/candles')
    expect(seenPath).toBe('/api/ws/candles')
    expect(sendBeforeOpen).toBe(false)

    const received = new Promise<string>((resolve) => socket.once('message', (data) => resolve(String(data))))
    expect(connection.send('access-token')).toBe(true)
    expect(await received).toBe('access-token')

    socket.send('{"event":"price_update"}')
    socket.send(Buffer.from('{"binary":true}'), { binary: true })
    await handlers.until(() => handlers.messages.length === 2)
    expect(handlers.messages).toEqual(['{"event":"price_update"}', '{"binary":true}'])
    connection.close()
  })

  it("reports the server's close code and reason, then refuses to send", async () => {
    const { handlers, connection, socket } = await open()
    socket.close(4001, 'token expired')
    await handlers.until(() => handlers.closed !== null)
    expect(handlers.closed).toEqual({ code: 4001, reason: 'token expired' })
    expect(connection.send('late')).toBe(false)
  })

  it('closes with the code and reason it is given, and falls back to a normal close on a reserved code', async () => {
    const first = await open()
    const seen = new Promise<[number, string]>((resolve) =>
      first.socket.once('close', (code, reason) => resolve([code, String(reason)])),
    )
    first.connection.close(4000, 'bye')
    expect(await seen).toEqual([4000, 'bye'])

    const second = await open()
    const seenSecond = new Promise<number>((resolve) => second.socket.once('close', (code) => resolve(code)))
    expect(() => second.connection.close(1006, 'not allowed')).not.toThrow()
    expect([1000, 1005]).toContain(await seenSecond)
  })

  it('reports an abnormal close when nothing listens', async () => {
    const handlers = new Recorder()
    const connection = makeFactory(await deadOrigin()).open('/api/ws/', handlers)
    await handlers.until(() => handlers.closed !== null)
    expect(handlers.opened).toBe(false)
    expect(handlers.closed?.code).toBe(1006)
    expect(connection.send('anything')).toBe(false)
  })

  it('reports an abnormal close, instead of throwing, when the socket cannot even be created', async () => {
    const handlers = new Recorder()
    const connection = makeFactory('not a url').open('/api/ws/', handlers)
    expect(connection.send('anything')).toBe(false)
    await handlers.until(() => handlers.closed !== null)
    expect(handlers.closed?.code).toBe(1006)
  })
})

describe('socketUrl', () => {
  it('turns http into ws and https into wss, keeping host and path', () => {
    expect(socketUrl('http://127.0.0.1:8080', '/api/ws/')).toBe('ws://127.0.0.1:8080/api/ws/')
    expect(socketUrl('https://app.example.com', '/api/ws/candles')).toBe('wss://app.example.com/api/ws/candles')
  })
})
