import type { SocketConnection, SocketFactory, SocketHandlers } from '../../core/ports/socket.port.ts'
import { connectSocket, failedSocket, socketUrl, type WebSocketLike } from '../shared/socket-connection.ts'

export interface WebSocketFactoryOptions {
  /** The API host, 'https://…' or 'http://…'; the page's own origin by default. */
  readonly origin?: string
  readonly WebSocket?: new (url: string) => WebSocketLike
}

/** The product's sockets over the browser's WebSocket. */
export class WebSocketFactory implements SocketFactory {
  private readonly origin: string
  private readonly WebSocket: new (url: string) => WebSocketLike

  constructor(options: WebSocketFactoryOptions = {}) {
    this.origin = options.origin || globalThis.location.origin
    this.WebSocket = options.WebSocket ?? (globalThis.WebSocket as unknown as new (url: string) => WebSocketLike)
  }

  open(path: string, handlers: SocketHandlers): SocketConnection {
    try {
      return connectSocket(new this.WebSocket(socketUrl(this.origin, path)), handlers)
    } catch (cause) {
      return failedSocket(handlers, cause)
    }
  }
}
