import WebSocket from 'ws'
import type { SocketConnection, SocketFactory, SocketHandlers } from '../../core/ports/socket.port.ts'
import { connectSocket, failedSocket, socketUrl, type WebSocketLike } from '../shared/socket-connection.ts'

/** The product's sockets over the `ws` package, for the CLI. `origin` is the API host, 'http(s)://…'. */
export class WsSocketFactory implements SocketFactory {
  constructor(private readonly origin: string) {}

  open(path: string, handlers: SocketHandlers): SocketConnection {
    try {
      return connectSocket(new WebSocket(socketUrl(this.origin, path)) as unknown as WebSocketLike, handlers)
    } catch (cause) {
      return failedSocket(handlers, cause)
    }
  }
}
