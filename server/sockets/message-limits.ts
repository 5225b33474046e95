import type { WebSocket } from 'ws'
import type { RateRule } from '../config/rate-limits.ts'
import { CLOSE_REASONS, closeSocket, POLICY_CLOSE } from './close.ts'

/**
 * Counts the messages of one socket in fixed windows of `rule`, its pings with them (each is answered
 * with a pong, and the app's clients send none): past `rule.max` in a window the socket closes with
 * 1008 "Too many messages" and its later messages are not read (the socket's handlers skip messages
 * once it is not open). Attached before the handlers, so it counts first.
 */
export const limitMessages = (ws: WebSocket, rule: RateRule | null): void => {
  if (!rule) return
  let n = 0
  let until = 0
  const count = () => {
    const now = Date.now()
    if (now >= until) {
      n = 0
      until = now + rule.windowS * 1000
    }
    if (++n > rule.max) closeSocket(ws, POLICY_CLOSE, CLOSE_REASONS.tooManyMessages)
  }
  ws.on('message', count)
  ws.on('ping', count)
}
