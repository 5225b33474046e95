import type { SocketConnection, SocketFactory, SocketHandlers } from '../../../core/index.ts'

/** One connection the code opened; the test plays the server's side. */
export class FakeConnection implements SocketConnection {
  readonly sent: string[] = []
  state: 'connecting' | 'open' | 'closed' = 'connecting'
  closedBy: 'client' | 'server' | null = null
  closeCode: number | null = null
  /** Date.now() when the code opened it (fake timers make this the test's time). */
  readonly openedAt = Date.now()

  constructor(
    readonly path: string,
    private readonly handlers: SocketHandlers,
  ) {}

  send(text: string): boolean {
    if (this.state !== 'open') return false
    this.sent.push(text)
    return true
  }

  /** The client closes: like a browser, the close event follows asynchronously. */
  close(code = 1005, reason = ''): void {
    if (this.state === 'closed') return
    this.state = 'closed'
    this.closedBy = 'client'
    this.closeCode = code
    queueMicrotask(() => this.handlers.onClose(code, reason))
  }

  /** The server accepts the connection. */
  accept(): void {
    this.state = 'open'
    this.handlers.onOpen()
  }

  deliver(text: string): void {
    this.handlers.onMessage(text)
  }

  deliverEvent(event: string, data: unknown): void {
    this.deliver(JSON.stringify({ event, data }))
  }

  /** The server (or the network) ends the connection. */
  drop(code = 1006, reason = ''): void {
    if (this.state === 'closed') return
    this.state = 'closed'
    this.closedBy = 'server'
    this.closeCode = code
    this.handlers.onClose(code, reason)
  }
}

/** Hands out FakeConnections and keeps them in the order they were opened. */
export class FakeSocketFactory implements SocketFactory {
  readonly connections: FakeConnection[] = []
  /** When set, every new connection is accepted at once. */
  autoAccept = false

  open(path: string, handlers: SocketHandlers): SocketConnection {
    const conn = new FakeConnection(path, handlers)
    this.connections.push(conn)
    if (this.autoAccept) queueMicrotask(() => conn.state === 'connecting' && conn.accept())
    return conn
  }

  get last(): FakeConnection {
    const conn = this.connections.at(-1)
    if (!conn) throw new Error('no connection was opened')
    return conn
  }

  get openCount(): number {
    return this.connections.filter((c) => c.state === 'open').length
  }
}
