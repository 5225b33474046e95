import type { Effect } from 'effect'
import type { NetworkError } from '../errors.ts'

export interface HttpRequest {
  readonly method: 'GET' | 'POST'
  /** A path under the API base, such as '/mint/create'. */
  readonly path: string
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>
  readonly body?: unknown
  readonly bearer?: string
  /** Sent as the Idempotency-Key header on creates, so that a repeated submit has one effect. */
  readonly idempotencyKey?: string
}

export interface HttpResponse {
  readonly status: number
  /** The parsed JSON body, or null when there was none. */
  readonly body: unknown
}

/**
 * Sends one HTTP request to the product API and gives back its status and JSON body.
 * It fails only when no answer came; every status is an answer. Interrupting the effect
 * aborts the request. A fake answers from a table:
 * `{ send: (req) => Effect.succeed({ status: 200, body: table[req.path] }) }`.
 */
export interface HttpTransport {
  send(request: HttpRequest): Effect.Effect<HttpResponse, NetworkError>
}
