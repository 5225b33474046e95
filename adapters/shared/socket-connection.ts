import type { SocketConnection, SocketHandlers } from '../../core/ports/socket.port.ts'

/** What the browser's WebSocket and the `ws` package's WebSocket have in common. */
export interface WebSocketLike {
  readonly readyState: number
  binaryType: string
  onopen: ((event: unknown) => void) | null
  onmessage: ((event: { readonly data: unknown }) => void) | null
  onclose: ((event: { readonly code: number; readonly reason: string }) => void) | null
  onerror: ((event: unknown) => void) | null
  send(data: string): void
  close(code?: number, reason?: string): void
}

/** WebSocket.OPEN in both implementations. */
const OPEN = 1
/** The close code a browser reports when a connection ended without a close frame (RFC 6455 §7.4.1). */
export const ABNORMAL_CLOSURE = 1006

const decoder = new TextDecoder()

const textOf = (data: unknown): string => {
  if (typeof data === 'string') return data
  if (data instanceof ArrayBuffer) return decoder.decode(data)
  if (ArrayBuffer.isView(data)) return decoder.decode(data)
  return String(data)
}

/** Wires one WebSocket to the port's handlers. A socket only speaks; reconnecting is the core's job. */
export const connectSocket = (socket: WebSocketLike, handlers: SocketHandlers): SocketConnection => {
  socket.binaryType = 'arraybuffer'
  socket.onopen = () => handlers.onOpen()
  socket.onmessage = (event) => handlers.onMessage(textOf(event.data))
  socket.onclose = (event) => handlers.onClose(event.code, event.reason)
  // An error is always followed by a close event, which is what the core acts on.
  socket.onerror = () => {}
  return {
    send: (text) => {
      if (socket.readyState !== OPEN) return false
      try {
        socket.send(text)
        return true
      } catch {
        return false
      }
    },
    close: (code, reason) => {
      try {
        socket.close(code, reason)
      } catch {
        // A code outside 1000 and 3000–4999 is refused; close normally instead.
        socket.close()
      }
    },
  }
}

/** A socket that could not even be created: it reports an abnormal close and sends nothing. */
export const failedSocket = (handlers: SocketHandlers, cause: unknown): SocketConnection => {
  const reason = cause instanceof Error ? cause.message : String(cause)
  queueMicrotask(() => handlers.onClose(ABNORMAL_CLOSURE, reason))
  return { send: () => false, close: () => {} }
}

/** The socket URL for a path on an http(s) origin: http → ws, https → wss. */
export const socketUrl = (origin: string, path: string): string => {
  const url = new URL(path, origin)
  if (url.protocol === 'http:') url.protocol = 'ws:'
  else if (url.protocol === 'https:') url.protocol = 'wss:'
  return url.toString()
}
