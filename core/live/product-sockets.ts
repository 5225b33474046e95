import { CANDLE_SOCKET_PATH, DEFAULT_CANDLE_INTERVAL, MAIN_SOCKET_PATH } from '../domain/constants.ts'
import type { CandleInterval, CurrentCandle } from '../domain/entities/market.ts'
import type { SessionStore } from '../ports/session-store.port.ts'
import type { SocketFactory } from '../ports/socket.port.ts'
import { decodeLiveEvent, type LiveEvent } from './live-events.ts'
import { openReconnectingSocket, type ReconnectingSocket, type SocketStatus } from './reconnecting-socket.ts'

export interface MainSocketDeps {
  readonly sockets: SocketFactory
  readonly session: SessionStore
  /** Refreshes the access token after the socket refused it (a user call does: a 401 refreshes). */
  readonly refreshSession?: () => Promise<unknown>
}

/** The main socket (spec §7): the access token first, then the user's and the global live events. */
export const openMainSocket = (
  deps: MainSocketDeps,
  onEvent: (event: LiveEvent) => void,
  onStatus?: (status: SocketStatus) => void,
): ReconnectingSocket =>
  openReconnectingSocket({
    sockets: deps.sockets,
    path: MAIN_SOCKET_PATH,
    firstMessage: () => deps.session.get('auth_token'),
    onMessage: (text) => {
      const event = decodeLiveEvent(text)
      if (event) onEvent(event)
    },
    ...(deps.refreshSession ? { onAuthFailed: deps.refreshSession } : {}),
    ...(onStatus ? { onStatus } : {}),
  })

export interface CandleSocket extends ReconnectingSocket {
  /** Switches the live candles to another interval. */
  switchInterval(interval: CandleInterval): void
}

/** The candle socket (spec §7): sends the interval, receives `current_candle` events. */
export const openCandleSocket = (
  deps: { readonly sockets: SocketFactory },
  onCandle: (candle: CurrentCandle) => void,
  initial: CandleInterval = DEFAULT_CANDLE_INTERVAL,
): CandleSocket => {
  let interval = initial
  const socket = openReconnectingSocket({
    sockets: deps.sockets,
    path: CANDLE_SOCKET_PATH,
    firstMessage: () => interval,
    onMessage: (text) => {
      const event = decodeLiveEvent(text)
      if (event?.event === 'current_candle' && (!event.data.interval || event.data.interval === interval)) onCandle(event.data)
    },
  })
  return {
    ...socket,
    switchInterval: (next) => {
      interval = next
      // While the socket is down there is nothing to send: reconnecting sends the current interval first.
      if (socket.status() === 'open') socket.send(next)
    },
  }
}
