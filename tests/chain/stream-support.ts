import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { eventually } from './support.ts'

/** A hand-written SSE server: each POST is kept open for the test to write raw lines to. */
export const sseServer = async (answer: (n: number) => number = () => 200) => {
  const requests: Array<{ body: unknown; headers: IncomingMessage['headers']; res: ServerResponse }> = []
  const server = createServer((req, res) => {
    let text = ''
    req.on('data', (c) => (text += c))
    req.on('end', () => {
      const status = answer(requests.length)
      if (status !== 200) {
        requests.push({ body: JSON.parse(text), headers: req.headers, res })
        res.writeHead(status).end('{"error":"Too many requests"}')
        return
      }
      res.writeHead(200, { 'Content-Type': 'text/event-stream' })
      res.flushHeaders()
      requests.push({ body: JSON.parse(text), headers: req.headers, res })
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as { port: number }).port
  return {
    url: `http://127.0.0.1:${port}/api/streaming/v2/sse`,
    requests,
    /** The n-th connection (waits for it). */
    conn: (n: number) => eventually(() => requests[n], 5000).then((r) => r.res),
    close: () =>
      new Promise<void>((r) => {
        for (const q of requests) q.res.destroy()
        server.close(() => r())
      }),
  }
}

