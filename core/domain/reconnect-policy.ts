import { Duration, Effect, Schedule } from 'effect'
import {
  SOCKET_RECONNECT_AFTER_EXHAUSTED_MS,
  SOCKET_RECONNECT_BASE_MS,
  SOCKET_RECONNECT_FACTOR,
  SOCKET_RECONNECT_MAX_ATTEMPTS,
  SOCKET_RECONNECT_MAX_DELAY_MS,
  SOCKET_SEND_RETRY_MS,
  SOCKET_SEND_RETRY_TIMES,
  SOCKET_TOKEN_RETRY_MS,
} from './constants.ts'

const cappedBackoff = Schedule.exponential(Duration.millis(SOCKET_RECONNECT_BASE_MS), SOCKET_RECONNECT_FACTOR).pipe(
  Schedule.modifyDelay(({ duration }) => Effect.succeed(Duration.min(duration, Duration.millis(SOCKET_RECONNECT_MAX_DELAY_MS)))),
)

/**
 * The socket reconnect policy (spec §9): exponential from 1 s, doubling up to 30 s, for at most
 * 1 000 attempts; after that, a retry every 5 s.
 */
export const socketReconnectPolicy = Schedule.concat(
  Schedule.max([cappedBackoff, Schedule.recurs(SOCKET_RECONNECT_MAX_ATTEMPTS - 1)]),
  Schedule.spaced(Duration.millis(SOCKET_RECONNECT_AFTER_EXHAUSTED_MS)),
)

/** Sending on a socket that is not open is retried 15 times, 2 s apart (spec §9). */
export const socketSendRetryPolicy = Schedule.max([
  Schedule.spaced(Duration.millis(SOCKET_SEND_RETRY_MS)),
  Schedule.recurs(SOCKET_SEND_RETRY_TIMES),
])

/** Waiting for an access token before the main socket's first message retries every 1 s (spec §8). */
export const socketTokenRetryPolicy = Schedule.spaced(Duration.millis(SOCKET_TOKEN_RETRY_MS))
