import { Effect } from 'effect'
import { type HttpRequest, type HttpResponse, type HttpTransport, NetworkError } from '../../../core/index.ts'

export type Reply =
  | HttpResponse
  | 'network-error'
  | 'hang'
  | ((request: HttpRequest) => HttpResponse | Effect.Effect<HttpResponse, NetworkError>)

export const ok = (body: unknown = {}): HttpResponse => ({ status: 200, body })
export const answer = (status: number, msg: string): HttpResponse => ({ status, body: { msg } })

/**
 * Answers 'METHOD /path' from a table the test fills, and keeps every request it was sent.
 * The replies for a route are used in order, the last one repeating; an unknown route is a 404.
 */
export class FakeHttpTransport implements HttpTransport {
  readonly requests: HttpRequest[] = []
  private readonly routes = new Map<string, { replies: Reply[]; used: number }>()

  on(route: string, ...replies: Reply[]): this {
    this.routes.set(route, { replies, used: 0 })
    return this
  }

  send(request: HttpRequest): Effect.Effect<HttpResponse, NetworkError> {
    return Effect.suspend(() => {
      this.requests.push(request)
      const route = this.routes.get(`${request.method} ${request.path}`)
      const reply = route ? route.replies[Math.min(route.used++, route.replies.length - 1)] : undefined
      if (reply === undefined) return Effect.succeed(answer(404, `No route ${request.method} ${request.path}`))
      if (reply === 'network-error') return Effect.fail(new NetworkError({ cause: 'ECONNREFUSED' }))
      if (reply === 'hang') return Effect.never
      if (typeof reply === 'function') {
        const r = reply(request)
        return Effect.isEffect(r) ? (r as Effect.Effect<HttpResponse, NetworkError>) : Effect.succeed(r as HttpResponse)
      }
      return Effect.succeed(reply)
    })
  }

  requestsTo(route: string): HttpRequest[] {
    return this.requests.filter((r) => `${r.method} ${r.path}` === route)
  }
}
