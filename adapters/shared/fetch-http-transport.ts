import { Effect } from 'effect'
import { API_BASE_PATH } from '../../core/domain/constants.ts'
import { NetworkError } from '../../core/errors.ts'
import type { HttpRequest, HttpResponse, HttpTransport } from '../../core/ports/http-transport.port.ts'

export interface FetchHttpTransportOptions {
  /** The API host, such as 'https://api.example.com'; '' (the default) means the page's own origin. */
  readonly origin?: string
  readonly fetch?: typeof globalThis.fetch
}

const queryString = (query: HttpRequest['query']): string => {
  if (!query) return ''
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.append(key, String(value))
  }
  const text = params.toString()
  return text ? `?${text}` : ''
}

const parseBody = (text: string): unknown => {
  if (text.trim() === '') return null
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/**
 * The product API over `fetch`, in the browser and in Node alike. Every status is an answer;
 * only a request that got none fails, with NetworkError. Interrupting the effect aborts the request.
 */
export class FetchHttpTransport implements HttpTransport {
  private readonly base: string
  private readonly fetch: typeof globalThis.fetch

  constructor(options: FetchHttpTransportOptions = {}) {
    this.base = (options.origin ?? '').replace(/\/+$/, '') + API_BASE_PATH
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  }

  send(request: HttpRequest): Effect.Effect<HttpResponse, NetworkError> {
    const url = this.base + request.path + queryString(request.query)
    const headers: Record<string, string> = { Accept: 'application/json' }
    const sendsBody = request.method !== 'GET' && request.body !== undefined
    if (sendsBody) headers['Content-Type'] = 'application/json'
    if (request.bearer) headers.Authorization = `Bearer ${request.bearer}`
    if (request.idempotencyKey) headers['Idempotency-Key'] = request.idempotencyKey
    return Effect.tryPromise({
      try: async (signal) => {
        const res = await this.fetch(url, {
          method: request.method,
          headers,
          body: sendsBody ? JSON.stringify(request.body) : undefined,
          signal,
        })
        return { status: res.status, body: parseBody(await res.text()) }
      },
      catch: (cause) => new NetworkError({ cause }),
    })
  }
}
