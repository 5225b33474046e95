import type { WebSocket } from 'ws'
import type { EventSink } from '../domain/events.ts'
import { liveEventWire } from '../http/wire-format.ts'
import type { CandleInterval } from '../domain/price-walk.ts'
import { BAD_TOKEN_CLOSE, CLOSE_REASONS, closeSocket } from './close.ts'

/** The sockets the server pushes to: authenticated main sockets by user, and candle subscribers. */
export interface SocketHub {
  toUser(userId: bigint, event: string, data: unknown): void
  broadcast(event: string, data: unknown): void
  /** A main socket signed in as `userId`, on a token of the session `family` (a token again replaces both). */
  add(userId: bigint, ws: WebSocket, family: string): void
  remove(ws: WebSocket): void
  readonly candleSockets: Map<WebSocket, CandleInterval>
  mainCount(): number
  /** Closes every socket (main and candle) with `code`: their clients connect again and read the state anew. */
  closeAll(code: number, reason: string): void
  /** Closes the main sockets signed in on the session `family` (revoked): 4001 "Session revoked". */
  closeFamily(family: string): void
}

/**
 * The close code when this instance may have missed live events (1012, "service restart"): the
 * client connects again, as after any drop, and reads the state anew.
 */
export const LIVE_GAP_CLOSE = 1012

export const envelope = (event: string, data: unknown) => JSON.stringify({ event, data })

const sendText = (ws: WebSocket, text: string) => {
  if (ws.readyState === ws.OPEN) ws.send(text)
}

export const createHub = (): SocketHub => {
  const byUser = new Map<bigint, Set<WebSocket>>()
  const userOf = new Map<WebSocket, bigint>()
  const byFamily = new Map<string, Set<WebSocket>>()
  const familyOf = new Map<WebSocket, string>()
  const remove = (ws: WebSocket) => {
    const userId = userOf.get(ws)
    if (userId !== undefined) {
      userOf.delete(ws)
      const set = byUser.get(userId)
      set?.delete(ws)
      if (set?.size === 0) byUser.delete(userId)
    }
    const family = familyOf.get(ws)
    if (family !== undefined) {
      familyOf.delete(ws)
      const set = byFamily.get(family)
      set?.delete(ws)
      if (set?.size === 0) byFamily.delete(family)
    }
  }
  return {
    candleSockets: new Map(),
    add: (userId, ws, family) => {
      remove(ws)
      let set = byUser.get(userId)
      if (!set) byUser.set(userId, (set = new Set()))
      set.add(ws)
      userOf.set(ws, userId)
      let sameFamily = byFamily.get(family)
      if (!sameFamily) byFamily.set(family, (sameFamily = new Set()))
      sameFamily.add(ws)
      familyOf.set(ws, family)
    },
    remove,
    toUser: (userId, event, data) => {
      const set = byUser.get(userId)
      if (!set || data === null) return
      const text = envelope(event, data)
      for (const ws of set) sendText(ws, text)
    },
    // Serialised once for every client: the fan-out cost is the sends alone.
    broadcast: (event, data) => {
      const text = envelope(event, data)
      for (const ws of userOf.keys()) sendText(ws, text)
    },
    mainCount: () => userOf.size,
    closeAll(code, reason) {
      for (const ws of [...userOf.keys(), ...this.candleSockets.keys()]) closeSocket(ws, code, reason)
    },
    closeFamily: (family) => {
      const set = byFamily.get(family)
      if (!set) return
      for (const ws of [...set]) {
        remove(ws)
        closeSocket(ws, BAD_TOKEN_CLOSE, CLOSE_REASONS.sessionRevoked)
      }
    },
  }
}

/** Live events from the domain, sent as their JSON (server/http/wire-format.ts) through the hub. */
export const liveEvents = (hub: SocketHub): EventSink => ({
  toUser: (userId, e) => {
    const { event, data } = liveEventWire(e)
    hub.toUser(userId, event, data)
  },
  broadcast: (e) => {
    const { event, data } = liveEventWire(e)
    hub.broadcast(event, data)
  },
})
