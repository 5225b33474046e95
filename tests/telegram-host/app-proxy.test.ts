import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { startTelegramHost, type RunningTelegramHost } from '../../stand-ins/telegram-host/index.ts'
import { TEST_BOT_TOKEN } from './support.ts'

/**
 * A client before 6.1 gets the app from the host's own origin (so the page can see the frame's
 * window.open); the host forwards the app's requests and its WebSocket to the app's server.
 */
let app: Server
let appUrl: string
let host: RunningTelegramHost
beforeAll(async () => {
  app = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'x-app': 'yes' })
    res.end(`app ${req.method} ${req.url}`)
  })
  const wss = new WebSocketServer({ server: app })
  wss.on('connection', (ws, req) => ws.on('message', (m) => ws.send(`echo ${req.url} ${String(m)}`)))
  await new Promise<void>((r) => app.listen(0, '127.0.0.1', r))
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/`
  host = await startTelegramHost({ port: 0, appUrl, botToken: TEST_BOT_TOKEN })
})
afterAll(async () => {
  await host.close()
  app.closeAllConnections()
  await new Promise((r) => app.close(r))
})

const launchUrl = async (version: string) => {
  const res = await fetch(new URL('/launch', host.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user: { id: 7, first_name: 'Ann' }, version }) })
  expect(res.status).toBe(200)
  return new URL(((await res.json()) as { url: string }).url)
}

describe('telegram host: the app from its own origin, for a client before 6.1', () => {
  it('launches 6.0 on the host origin, and 6.1 and later on the app origin', async () => {
    expect((await launchUrl('6.0')).origin).toBe(new URL(host.url).origin)
    expect((await launchUrl('6.1')).origin).toBe(new URL(appUrl).origin)
    expect((await launchUrl('7.10')).origin).toBe(new URL(appUrl).origin)
  })

  it("serves the app's document to a frame and the host page to a top-level visit", async () => {
    const framed = await fetch(host.url, { headers: { 'sec-fetch-dest': 'iframe' } })
    expect(await framed.text()).toBe('app GET /')
    const top = await fetch(host.url, { headers: { 'sec-fetch-dest': 'document' } })
    expect(top.headers.get('content-type')).toContain('text/html')
    expect(await top.text()).not.toBe('app GET /')
  })

  it("forwards what is not the host's own, with the app server's answer", async () => {
    const res = await fetch(new URL('/assets/index.js?v=1', host.url))
    expect(res.headers.get('x-app')).toBe('yes')
    expect(await res.text()).toBe('app GET /assets/index.js?v=1')
    const posted = await fetch(new URL('/api/user/me', host.url), { method: 'POST', body: 'x' })
    expect(await posted.text()).toBe('app POST /api/user/me')
  })

  it("forwards a WebSocket both ways", async () => {
    const ws = new WebSocket(new URL('/api/ws/', host.url.replace('http', 'ws')))
    const answer = new Promise<string>((resolve, reject) => {
      ws.on('message', (m) => resolve(String(m)))
      ws.on('error', reject)
    })
    await new Promise((r, j) => ws.once('open', r).once('error', j))
    ws.send('hello')
    expect(await answer).toBe('echo /api/ws/ hello')
    ws.close()
  })
})
