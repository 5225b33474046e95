import type { WebSocket } from 'ws'
import type { EventSink } from '../domain/events.ts'
import { liveEventWire } from '../http/wire-format.ts'
import type { CandleInterval } from '../domain/price-walk.ts'

/** The sockets the server pushes to: authenticated main sockets by user, and candle subscribers. */
export interface SocketHub {
  toUser(userId: bigint, event: string, data: unknown): void
  broadcast(event: string, data: unknown): void
  add(userId: bigint, ws: WebSocket): void
  remove(ws: WebSocket): void
  readonly candleSockets: Map<WebSocket, CandleInterval>
  mainCount(): number
  /** Closes every socket (main and candle) with `code`: their clients connect again and read the state anew. */
  closeAll(code: number, reason: string): void
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
  return {
    candleSockets: new Map(),
    add: (userId, ws) => {
      let set = byUser.get(userId)
      if (!set) byUser.set(userId, (set = new Set()))
      set.add(ws)
      userOf.set(ws, userId)
    },
    remove: (ws) => {
      const userId = userOf.get(ws)
      if (userId === undefined) return
      userOf.delete(ws)
      const set = byUser.get(userId)
      set?.delete(ws)
      if (set?.size === 0) byUser.delete(userId)
    },
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
      for (const ws of [...userOf.keys(), ...this.candleSockets.keys()]) ws.close(code, reason)
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
