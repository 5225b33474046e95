import { Data, Duration, Effect, Fiber, Schedule } from 'effect'
import {
  SOCKET_CONNECT_TIMEOUT_MS,
  SOCKET_RECONNECT_MAX_DELAY_MS,
  SOCKET_SHORT_REFRESH_MS,
  SOCKET_TOKEN_REFRESH_TIMEOUT_MS,
  SOCKET_TOKEN_RETRY_MS,
  SOCKET_TOKEN_TIMEOUT_MS,
} from '../domain/constants.ts'
import { socketReconnectPolicy, socketSendRetryPolicy } from '../domain/reconnect-policy.ts'
import type { SocketConnection, SocketFactory } from '../ports/socket.port.ts'

/** The close code the server uses for a refused access token. */
export const SOCKET_AUTH_FAILED_CODE = 4001

export type SocketStatus = 'connecting' | 'open' | 'closed'

class SocketNotOpened extends Data.TaggedError('SocketNotOpened')<{ readonly reason: string }> {}
class SocketNotReady extends Data.TaggedError('SocketNotReady')<{}> {}
class NoToken extends Data.TaggedError('NoToken')<{}> {}

export interface ReconnectingSocketOptions {
  readonly sockets: SocketFactory
  readonly path: string
  /** The first message once open (the access token, or the candle interval). Null: not available yet. */
  readonly firstMessage: () => string | null
  readonly onMessage: (text: string) => void
  readonly onStatus?: (status: SocketStatus) => void
  /**
   * Called when the server refuses the token; the socket reconnects 1 s after it settles, or after
   * 5 s of waiting for it (spec §9's token refresh timeout), so a refresh that hangs never stops the socket.
   */
  readonly onAuthFailed?: () => Promise<unknown>
  /** Overrides for tests; the defaults are the §9 policy. */
  readonly reconnectPolicy?: Schedule.Schedule<unknown>
  readonly shortRefreshMs?: number
}

export interface ReconnectingSocket {
  /** Sends now, or retries 15 × 2 s until the socket is open (spec §9). */
  send(text: string): void
  /** Reconnects at once if the socket is not open (on becoming visible, spec §4). */
  ensureOpen(): void
  readonly status: () => SocketStatus
  close(): void
}

/**
 * A socket that keeps itself connected (spec §8, §9): it sends its first message as soon as it
 * opens, waiting up to 5 s for it (retrying every 1 s); an attempt that does not open within 5 s
 * fails; failed attempts back off by the reconnect policy; a connection that closes after being
 * open reconnects after 1 s, and after a refused token only once the session was refreshed.
 */
export const openReconnectingSocket = (o: ReconnectingSocketOptions): ReconnectingSocket => {
  let status: SocketStatus = 'closed'
  let current: SocketConnection | null = null
  let generation = 0
  const setStatus = (s: SocketStatus, gen = generation) => {
    if (gen !== generation) return
    status = s
    o.onStatus?.(s)
  }

  const firstMessage = Effect.suspend(() => {
    const m = o.firstMessage()
    return m === null ? Effect.fail(new NoToken()) : Effect.succeed(m)
  }).pipe(
    Effect.retry({ schedule: Schedule.spaced(Duration.millis(SOCKET_TOKEN_RETRY_MS)) }),
    Effect.timeoutOrElse({
      duration: Duration.millis(SOCKET_TOKEN_TIMEOUT_MS),
      orElse: () => Effect.fail(new SocketNotOpened({ reason: 'no access token' })),
    }),
  )

  /** One connection: fails if it never opened, succeeds with the close code once an open one closes. */
  const connectOnce = Effect.callback<number, SocketNotOpened>((resume) => {
    let opened = false
    /** Set once this attempt is over, so that a token arriving late is not sent on a dead connection. */
    let over = false
    const gen = ++generation
    setStatus('connecting')
    const timer = setTimeout(() => {
      if (!opened) {
        over = true
        conn.close()
        resume(Effect.fail(new SocketNotOpened({ reason: 'connect timeout' })))
      }
    }, SOCKET_CONNECT_TIMEOUT_MS)
    const conn = o.sockets.open(o.path, {
      onOpen: () => {
        Effect.runPromise(Effect.result(firstMessage)).then((m) => {
          if (over) return
          if (m._tag === 'Failure') {
            over = true
            conn.close()
            resume(Effect.fail(m.failure instanceof SocketNotOpened ? m.failure : new SocketNotOpened({ reason: 'no token' })))
            return
          }
          opened = true
          clearTimeout(timer)
          current = conn
          conn.send(m.success)
          setStatus('open', gen)
        })
      },
      onMessage: o.onMessage,
      onClose: (code, reason) => {
        over = true
        clearTimeout(timer)
        if (current === conn) current = null
        setStatus('closed', gen)
        resume(opened ? Effect.succeed(code) : Effect.fail(new SocketNotOpened({ reason: reason || `closed ${code}` })))
      },
    })
    return Effect.sync(() => {
      over = true
      clearTimeout(timer)
      if (current === conn) current = null
      conn.close(1000, 'client closed')
    })
  })

  const shortRefreshMs = o.shortRefreshMs ?? SOCKET_SHORT_REFRESH_MS
  /** Refused tokens in a row: each waits twice as long before the next try, up to the backoff cap. */
  let refusedInARow = 0
  const cycle = connectOnce.pipe(
    Effect.retry({ schedule: o.reconnectPolicy ?? socketReconnectPolicy }),
    Effect.flatMap((code) => {
      if (code !== SOCKET_AUTH_FAILED_CODE) {
        refusedInARow = 0
        return Effect.sleep(Duration.millis(shortRefreshMs))
      }
      const wait = Duration.millis(Math.min(SOCKET_RECONNECT_MAX_DELAY_MS, shortRefreshMs * 2 ** refusedInARow++))
      const refresh = o.onAuthFailed
        ? Effect.promise(() => o.onAuthFailed!().catch(() => undefined)).pipe(
            Effect.timeoutOrElse({ duration: Duration.millis(SOCKET_TOKEN_REFRESH_TIMEOUT_MS), orElse: () => Effect.void }),
          )
        : Effect.void
      return refresh.pipe(Effect.andThen(Effect.sleep(wait)))
    }),
    Effect.forever,
  )

  let fiber = Effect.runFork(cycle)
  let closed = false

  return {
    send: (text) => {
      Effect.runFork(
        Effect.suspend(() => (current?.send(text) ? Effect.void : Effect.fail(new SocketNotReady()))).pipe(
          Effect.retry({ schedule: socketSendRetryPolicy }),
          Effect.ignore,
        ),
      )
    },
    ensureOpen: () => {
      if (closed || status !== 'closed') return
      Effect.runFork(Fiber.interrupt(fiber))
      fiber = Effect.runFork(cycle)
    },
    status: () => status,
    close: () => {
      closed = true
      Effect.runFork(Fiber.interrupt(fiber))
      setStatus('closed')
    },
  }
}
