import type { WebSocket } from 'ws'

/**
 * The close codes and reasons the sockets use. The reasons are fixed texts: an error's own message
 * (a database's, say) is logged on the server and never reaches the client.
 */
export const BAD_TOKEN_CLOSE = 4001
/** RFC 6455 1008, policy violation: the socket sent more messages than it may. */
export const POLICY_CLOSE = 1008
/** RFC 6455 1011: the server met an unexpected condition. */
export const INTERNAL_CLOSE = 1011

export const CLOSE_REASONS = {
  invalidToken: 'Invalid token',
  tokenExpired: 'Token expired',
  sessionRevoked: 'Session revoked',
  noToken: 'No token received',
  tooManyMessages: 'Too many messages',
  internal: 'Internal error',
} as const

/** A close frame's reason carries at most 123 bytes (RFC 6455 §5.5: 125 bytes of payload, 2 of them the code). */
export const MAX_CLOSE_REASON_BYTES = 123

/** `reason` cut to at most `MAX_CLOSE_REASON_BYTES` bytes of UTF-8, never in the middle of a character. */
export const closeReason = (reason: string): string => {
  if (Buffer.byteLength(reason, 'utf8') <= MAX_CLOSE_REASON_BYTES) return reason
  let out = ''
  let bytes = 0
  for (const ch of reason) {
    const n = Buffer.byteLength(ch, 'utf8')
    if (bytes + n > MAX_CLOSE_REASON_BYTES) break
    out += ch
    bytes += n
  }
  return out
}

/**
 * Closes `ws` with `code` and `reason`, and never throws: `ws.close` throws on a reason over 123
 * bytes or a code it does not accept, and a throw inside a socket's event handler would end the
 * process. A socket that cannot be closed cleanly is dropped.
 */
export const closeSocket = (ws: WebSocket, code: number, reason: string): void => {
  try {
    ws.close(code, closeReason(reason))
  } catch {
    try {
      ws.terminate()
    } catch {
      // Nothing more can be done with this socket.
    }
  }
}

/** Where the sockets report what went wrong inside the server (the app's logger). */
export type SocketLog = (error: unknown, where: string) => void

/** Something failed inside the server while serving `ws`: logged (a logger that throws is ignored), and the socket closed with 1011 "Internal error". */
export const closeOnInternalError = (ws: WebSocket, log: SocketLog, error: unknown, where: string): void => {
  try {
    log(error, where)
  } catch {
    // A logger that fails does not stop the close.
  }
  closeSocket(ws, INTERNAL_CLOSE, CLOSE_REASONS.internal)
}
