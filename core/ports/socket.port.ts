export interface SocketHandlers {
  onOpen(): void
  onMessage(text: string): void
  onClose(code: number, reason: string): void
}

export interface SocketConnection {
  /** False when the socket is not open and nothing was sent. */
  send(text: string): boolean
  close(code?: number, reason?: string): void
}

/** Opens WebSocket connections to the product's sockets ('/api/ws/', '/api/ws/candles'). */
export interface SocketFactory {
  open(path: string, handlers: SocketHandlers): SocketConnection
}
