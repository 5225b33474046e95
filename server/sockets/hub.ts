import type { WebSocket } from 'ws'
import type { EventSink } from '../domain/events.ts'
import { liveEventWire } from '../http/wire-format.ts'
import type { CandleInterval } from '../domain/price-walk.ts'
import { BAD_TOKEN_CLOSE, CLOSE_REASONS, closeSocket } from './close.ts'

/** The sockets the server pushes to: authenticated main sockets by user, and candle subscribers. */
export interface SocketHub {
  toUser(userId: bigint, event: string, data: unknown): void
  /** True when a main socket of `userId` is open on this instance. */
  hasUser(userId: bigint): boolean
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

/** Sockets grouped by a key (a user, a session family), and each socket's key: add, remove, look up. */
const socketIndex = <K>() => {
  const byKey = new Map<K, Set<WebSocket>>()
  const keyOf = new Map<WebSocket, K>()
  return {
    keyOf,
    of: (key: K): ReadonlySet<WebSocket> | undefined => byKey.get(key),
    add: (key: K, ws: WebSocket) => {
      let set = byKey.get(key)
      if (!set) byKey.set(key, (set = new Set()))
      set.add(ws)
      keyOf.set(ws, key)
    },
    remove: (ws: WebSocket) => {
      const key = keyOf.get(ws)
      if (key === undefined) return
      keyOf.delete(ws)
      const set = byKey.get(key)
      set?.delete(ws)
      if (set?.size === 0) byKey.delete(key)
    },
  }
}

export const createHub = (): SocketHub => {
  const users = socketIndex<bigint>()
  const families = socketIndex<string>()
  const remove = (ws: WebSocket) => {
    users.remove(ws)
    families.remove(ws)
  }
  return {
    candleSockets: new Map(),
    add: (userId, ws, family) => {
      remove(ws)
      users.add(userId, ws)
      families.add(family, ws)
    },
    remove,
    hasUser: (userId) => (users.of(userId)?.size ?? 0) > 0,
    toUser: (userId, event, data) => {
      const set = users.of(userId)
      if (!set || data === null) return
      const text = envelope(event, data)
      for (const ws of set) sendText(ws, text)
    },
    // Serialised once for every client: the fan-out cost is the sends alone.
    broadcast: (event, data) => {
      const text = envelope(event, data)
      for (const ws of users.keyOf.keys()) sendText(ws, text)
    },
    mainCount: () => users.keyOf.size,
    closeAll(code, reason) {
      for (const ws of [...users.keyOf.keys(), ...this.candleSockets.keys()]) closeSocket(ws, code, reason)
    },
    closeFamily: (family) => {
      const set = families.of(family)
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
