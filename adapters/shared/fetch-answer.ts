import { API_BASE_PATH } from '../../core/domain/constants.ts'
import type { HttpRequest, HttpResponse } from '../../core/ports/http-transport.port.ts'

/**
 * One product API request over `fetch`, as a plain promise: the URL, headers and body the API
 * expects, and the answer as status + parsed JSON. Shared by the transport (which wraps it in an
 * Effect) and the requests the browser entry starts before the core has loaded; it imports nothing
 * that runs, so the entry stays small.
 */

/** The API's base URL for an origin ('' is the page's own). */
export const apiBase = (origin = ''): string => origin.replace(/\/+$/, '') + API_BASE_PATH

const queryString = (query: HttpRequest['query']): string => {
  if (!query) return ''
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.append(key, String(value))
  }
  const text = params.toString()
  return text ? `?${text}` : ''
}

/** The request's URL under the API base, query included. */
export const requestUrl = (base: string, request: HttpRequest): string => base + request.path + queryString(request.query)

const parseBody = (text: string): unknown => {
  if (text.trim() === '') return null
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** Sends `request`; rejects only when no answer came (every status is an answer). */
export const fetchAnswer = async (
  fetch: typeof globalThis.fetch,
  base: string,
  request: HttpRequest,
  signal?: AbortSignal,
): Promise<HttpResponse> => {
  const headers: Record<string, string> = { Accept: 'application/json' }
  const sendsBody = request.method !== 'GET' && request.body !== undefined
  if (sendsBody) headers['Content-Type'] = 'application/json'
  if (request.bearer) headers.Authorization = `Bearer ${request.bearer}`
  if (request.idempotencyKey) headers['Idempotency-Key'] = request.idempotencyKey
  const res = await fetch(requestUrl(base, request), {
    method: request.method,
    headers,
    body: sendsBody ? JSON.stringify(request.body) : undefined,
    ...(signal ? { signal } : {}),
  })
  return { status: res.status, body: parseBody(await res.text()) }
}
