import { connect, type Socket } from 'node:net'

/** An HTTP/1.1 answer as read off the socket. */
export interface RawReply {
  readonly status: number
  readonly headers: Record<string, string>
  readonly text: string
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json: any
}

const parseReply = (all: Buffer): RawReply | null => {
  let raw = all
  // Skip interim answers (100 Continue).
  while (/^HTTP\/1\.[01] 1\d\d /.test(raw.subarray(0, 16).toString('latin1'))) {
    const interimEnd = raw.indexOf('\r\n\r\n')
    if (interimEnd < 0) return null
    raw = raw.subarray(interimEnd + 4)
  }
  const end = raw.indexOf('\r\n\r\n')
  if (end < 0) return null
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n')
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')
  if (!m) throw new Error(`not an HTTP answer: ${JSON.stringify(raw.toString('latin1').slice(0, 200))}`)
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const i = line.indexOf(':')
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim()
  }
  let body = raw.subarray(end + 4)
  if (headers['transfer-encoding'] === 'chunked') {
    const parts: Buffer[] = []
    let rest = body
    for (;;) {
      const lineEnd = rest.indexOf('\r\n')
      if (lineEnd < 0) return null
      const size = parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16)
      if (size === 0) break
      if (rest.length < lineEnd + 2 + size + 2) return null
      parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size))
      rest = rest.subarray(lineEnd + 2 + size + 2)
    }
    body = Buffer.concat(parts)
  } else if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length'])
    if (body.length < length) return null
    body = body.subarray(0, length)
  } else return null
  const text = body.toString('utf8')
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {}
  return { status: Number(m[1]), headers, text, json }
}

export interface RawConnection {
  readonly socket: Socket
  /** Writes bytes exactly as given. */
  write(data: string | Buffer): Promise<void>
  /** The next complete answer on this connection (or an error when the server closes without one). */
  reply(timeoutMs?: number): Promise<RawReply>
  /** What has been read and not yet taken as an answer, as text. */
  peek(): string
  /** Resolves when the server closes the connection. */
  readonly closed: Promise<void>
  close(): void
}

/** A TCP connection to the server, speaking HTTP/1.1 by hand. */
export const openRaw = (port: number): Promise<RawConnection> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let buffer = Buffer.alloc(0)
    let ended = false
    let wake: () => void = () => {}
    const closed = new Promise<void>((r) => socket.once('close', () => r()))
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      wake()
    })
    socket.on('close', () => {
      ended = true
      wake()
    })
    socket.on('error', () => {})
    socket.once('connect', () =>
      resolve({
        socket,
        write: (data) => new Promise((res, rej) => socket.write(data, (e) => (e ? rej(e) : res()))),
        reply: (timeoutMs = 5000) =>
          new Promise((res, rej) => {
            const timer = setTimeout(() => rej(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
            const check = () => {
              let parsed: RawReply | null
              try {
                parsed = parseReply(buffer)
              } catch (e) {
                clearTimeout(timer)
                return rej(e as Error)
              }
              if (parsed) {
                clearTimeout(timer)
                // Drop what was read (one answer per request on these connections).
                buffer = Buffer.alloc(0)
                return res(parsed)
              }
              if (ended) {
                clearTimeout(timer)
                return rej(new Error(`connection closed without an answer: ${JSON.stringify(buffer.toString('latin1'))}`))
              }
              wake = check
            }
            check()
          }),
        peek: () => buffer.toString('latin1'),
        closed,
        close: () => socket.destroy(),
      }),
    )
    socket.once('error', reject)
  })

/** Sends one hand-written request on a fresh connection and reads its answer. */
export const rawRequest = async (port: number, request: string | Buffer, timeoutMs?: number): Promise<RawReply> => {
  const c = await openRaw(port)
  try {
    await c.write(request)
    return await c.reply(timeoutMs)
  } finally {
    c.close()
  }
}

export interface RequestParts {
  readonly method: string
  readonly path: string
  readonly port: number
  /** Header lines in order, as the client writes them (Host is added first). */
  readonly headers?: ReadonlyArray<readonly [string, string]>
  readonly body?: string
}

/** Headers curl sends by itself. */
export const CURL_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['User-Agent', 'curl/8.5.0'],
  ['Accept', '*/*'],
]

/** Headers python requests sends by itself. */
export const PYTHON_REQUESTS_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['User-Agent', 'python-requests/2.31.0'],
  ['Accept-Encoding', 'gzip, deflate'],
  ['Accept', '*/*'],
  ['Connection', 'keep-alive'],
]

/** An HTTP/1.1 request as text: request line, Host, the given header lines, a blank line, the body. */
export const requestText = ({ method, path, port, headers = [], body }: RequestParts): string =>
  [`${method} ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, ...headers.map(([k, v]) => `${k}: ${v}`), '', body ?? ''].join('\r\n')

export const jsonHeaders = (body: string, token?: string): Array<readonly [string, string]> => [
  ...(token ? [['Authorization', `Bearer ${token}`] as const] : []),
  ['Content-Type', 'application/json'],
  ['Content-Length', String(Buffer.byteLength(body))],
]

/** A socket upgrade's answer, read off a raw connection. */
export interface UpgradeReply {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: string
  /** Resolves once the server has closed the connection. */
  readonly closed: Promise<void>
  readonly socket: Socket
}

/**
 * Sends a socket upgrade request written by hand (RFC 6455 §4.1), with the given extra header lines,
 * and reads the answer's head (and body, by Content-Length). A 101's connection is left open for the
 * caller; `track` receives every connection, to destroy after the tests.
 */
export const rawUpgrade = (port: number, path: string, headers: readonly string[], track?: (s: Socket) => void): Promise<UpgradeReply> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    track?.(socket)
    const closed = new Promise<void>((done) => socket.once('close', () => done()))
    let got = Buffer.alloc(0)
    socket.on('error', reject)
    socket.on('data', (chunk) => {
      got = Buffer.concat([got, chunk])
      const end = got.indexOf('\r\n\r\n')
      if (end < 0) return
      const [statusLine, ...lines] = got.subarray(0, end).toString('latin1').split('\r\n')
      const heads: Record<string, string> = {}
      for (const line of lines) heads[line.slice(0, line.indexOf(':')).trim().toLowerCase()] = line.slice(line.indexOf(':') + 1).trim()
      const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine!)![1])
      const length = Number(heads['content-length'] ?? 0)
      if (status !== 101 && got.length < end + 4 + length) return
      socket.removeAllListeners('data')
      resolve({ status, headers: heads, body: got.subarray(end + 4, end + 4 + length).toString('utf8'), closed, socket })
    })
    socket.write(
      [
        `GET ${path} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        'Sec-WebSocket-Version: 13',
        ...headers,
        '',
        '',
      ].join('\r\n'),
    )
  })
