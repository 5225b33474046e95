import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A Bot API server for tests, written from core.telegram.org/bots/api ("Making requests"), not from
 * any client library: POST /bot<token>/<method> with a JSON body; every answer is the envelope
 * `{"ok":true,"result":…}` or `{"ok":false,"error_code":N,"description":"…","parameters":{"retry_after":S}}`
 * with the HTTP status equal to error_code, as Telegram sends it.
 */
export interface FakeCall {
  readonly method: string
  readonly params: Record<string, unknown>
  readonly at: number
}

/** What a scripted method answers: a result, or a hand-written error envelope. */
export type FakeAnswer = { readonly result: unknown } | { readonly status: number; readonly body: string }

export type FakeHandler = (params: Record<string, unknown>, call: FakeCall) => FakeAnswer | Promise<FakeAnswer>

export interface BotApiFake {
  /** The TELEGRAM_API_ROOT to give the code under test. */
  readonly url: string
  readonly calls: FakeCall[]
  callsOf(method: string): FakeCall[]
  /** Scripts a method (replacing what it answered before). */
  on(method: string, handler: FakeHandler): void
  close(): Promise<void>
}

export const ok = (result: unknown): FakeAnswer => ({ result })
/** Telegram's error envelope, written out by hand. */
export const error = (code: number, description: string, retryAfter?: number): FakeAnswer => ({
  status: code,
  body:
    retryAfter === undefined
      ? `{"ok":false,"error_code":${code},"description":${JSON.stringify(description)}}`
      : `{"ok":false,"error_code":${code},"description":${JSON.stringify(description)},"parameters":{"retry_after":${retryAfter}}}`,
})
export const BLOCKED = error(403, 'Forbidden: bot was blocked by the user')
export const tooManyRequests = (retryAfter: number) => error(429, `Too Many Requests: retry after ${retryAfter}`, retryAfter)

const readJson = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
  const chunks: Buffer[] = []
  for await (const c of req) chunks.push(c as Buffer)
  const raw = Buffer.concat(chunks).toString('utf8')
  if (raw === '') return {}
  const type = req.headers['content-type'] ?? ''
  if (type.includes('application/json')) return JSON.parse(raw) as Record<string, unknown>
  // application/x-www-form-urlencoded: objects arrive JSON-serialized, as the docs allow.
  const out: Record<string, unknown> = {}
  for (const [k, v] of new URLSearchParams(raw)) {
    try {
      out[k] = JSON.parse(v)
    } catch {
      out[k] = v
    }
  }
  return out
}

export const startBotApiFake = async (token: string): Promise<BotApiFake> => {
  const calls: FakeCall[] = []
  const handlers = new Map<string, FakeHandler>()
  const server = createServer((req, res) => {
    void (async () => {
      const m = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(new URL(req.url ?? '/', 'http://x').pathname)
      const send = (status: number, body: string) => {
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(body)
      }
      if (!m) return send(404, '{"ok":false,"error_code":404,"description":"Not Found"}')
      if (m[1] !== token) return send(401, '{"ok":false,"error_code":401,"description":"Unauthorized"}')
      const params = await readJson(req)
      const call = { method: m[2]!, params, at: Date.now() }
      calls.push(call)
      const handler = handlers.get(call.method)
      if (!handler) return send(404, '{"ok":false,"error_code":404,"description":"Not Found: method not found"}')
      const answer = await handler(params, call)
      if ('result' in answer) return send(200, `{"ok":true,"result":${JSON.stringify(answer.result)}}`)
      send(answer.status, answer.body)
    })().catch(() => {
      res.writeHead(500, { 'content-type': 'application/json' })
      res.end('{"ok":false,"error_code":500,"description":"Internal Server Error"}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    callsOf: (method) => calls.filter((c) => c.method === method),
    on: (method, handler) => void handlers.set(method, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** A ChatMember as getChatMember answers it, for a user of the community. */
export const chatMember = (userId: number, status: string, extra: Record<string, unknown> = {}) => ({
  status,
  user: { id: userId, is_bot: false, first_name: `User ${userId}` },
  ...(status === 'restricted' ? { is_member: false, until_date: 0 } : {}),
  ...extra,
})
