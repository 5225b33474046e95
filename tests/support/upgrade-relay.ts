import { type IncomingMessage, request } from 'node:http'
import type { Duplex } from 'node:stream'

/**
 * Relays a socket upgrade (WebSocket) from a test proxy to the backend at `upstream`: the backend's
 * 101 answer is written back byte for byte and the two sockets are piped into each other. `opened`
 * gets both sockets once the upgrade is through (to track or cut them); an error on either side
 * closes both.
 */
export const relayUpgrade = (
  upstream: URL,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  opened: (client: Duplex, backend: Duplex) => void = () => {},
): void => {
  socket.on('error', () => socket.destroy())
  const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers })
  out.on('upgrade', (upRes, upSocket, upHead) => {
    const lines = [`HTTP/1.1 ${upRes.statusCode} ${upRes.statusMessage}`]
    for (let i = 0; i < upRes.rawHeaders.length; i += 2) lines.push(`${upRes.rawHeaders[i]}: ${upRes.rawHeaders[i + 1]}`)
    socket.write(`${lines.join('\r\n')}\r\n\r\n`)
    if (upHead.length) socket.write(upHead)
    if (head.length) upSocket.write(head)
    upSocket.pipe(socket).pipe(upSocket)
    socket.on('error', () => upSocket.destroy())
    upSocket.on('error', () => socket.destroy())
    opened(socket, upSocket)
  })
  out.on('error', () => socket.destroy())
  out.end()
}
