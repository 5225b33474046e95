import { Effect } from 'effect'
import { NetworkError } from '../../core/errors.ts'
import type { HttpRequest, HttpResponse, HttpTransport } from '../../core/ports/http-transport.port.ts'
import { apiBase, fetchAnswer } from './fetch-answer.ts'

/**
 * Answers that were asked for before the core was there (the browser entry starts them with the
 * page). `take` hands over the answer to exactly this request, at most once; null means "not
 * prefetched: send it". A taken promise that resolves to null had no usable answer, and the
 * request is sent after all.
 */
export interface PrefetchedAnswers {
  take(request: HttpRequest): Promise<HttpResponse | null> | null
}

export interface FetchHttpTransportOptions {
  /** The API host, such as 'https://api.example.com'; '' (the default) means the page's own origin. */
  readonly origin?: string
  readonly fetch?: typeof globalThis.fetch
  /** Answers already on their way; the first request that matches one gets it instead of a new request. */
  readonly prefetched?: PrefetchedAnswers
}

/**
 * The product API over `fetch`, in the browser and in Node alike. Every status is an answer;
 * only a request that got none fails, with NetworkError. Interrupting the effect aborts the request.
 */
export class FetchHttpTransport implements HttpTransport {
  private readonly base: string
  private readonly fetch: typeof globalThis.fetch
  private readonly prefetched: PrefetchedAnswers | null

  constructor(options: FetchHttpTransportOptions = {}) {
    this.base = apiBase(options.origin)
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
    this.prefetched = options.prefetched ?? null
  }

  send(request: HttpRequest): Effect.Effect<HttpResponse, NetworkError> {
    return Effect.tryPromise({
      try: async (signal) => {
        const early = this.prefetched?.take(request)
        const answer = early ? await early : null
        return answer ?? (await fetchAnswer(this.fetch, this.base, request, signal))
      },
      catch: (cause) => new NetworkError({ cause }),
    })
  }
}
