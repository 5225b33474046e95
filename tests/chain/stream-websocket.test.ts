import { Address, toNano } from '@ton/core'
import Fastify from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket, { WebSocketServer } from 'ws'
import { startStreamListener, type StreamNotice } from '../../server/chain/stream-listener.ts'
import { commentCell, LocalChain } from '../../stand-ins/chain/local-chain.ts'
import { registerStreamingRoutes, STREAM_WS_PATH } from '../../stand-ins/chain/streaming-api.ts'
import { eventually } from './support.ts'

/**
 * The Streaming API v2's WebSocket transport (docs.ton.org/ecosystem/api/toncenter/streaming/wss): the
 * client sends `{"operation": "subscribe", types, addresses, min_finality, id}` and is answered
 * `{"id", "status": "subscribed"}`, pings (`{"operation": "ping", id}` → `{"id", "status": "pong"}`),
 * and reads the same notifications as over SSE. AXIOM_TON_STREAM's scheme chooses it: wss (ws locally).
 */
const closers: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c()
})

const TREASURY = Address.parse('0:' + 'ab'.repeat(32))
const TRACE = Buffer.alloc(32, 9).toString('base64')

/** A hand-written WebSocket server: each connection's requests, its upgrade headers, and the socket to answer on. */
const wsServer = async () => {
  const conns: Array<{ ws: WebSocket; headers: Record<string, string | string[] | undefined>; got: Array<Record<string, unknown>> }> = []
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' })
  await new Promise<void>((r) => server.once('listening', () => r()))
  server.on('connection', (ws, req) => {
    const c = { ws, headers: req.headers, got: [] as Array<Record<string, unknown>> }
    conns.push(c)
    ws.on('message', (raw) => c.got.push(JSON.parse(raw.toString()) as Record<string, unknown>))
  })
  const port = (server.address() as { port: number }).port
  closers.push(
    () =>
      new Promise<void>((r) => {
        for (const c of conns) c.ws.terminate()
        server.close(() => r())
      }),
  )
  return { url: `ws://127.0.0.1:${port}/api/streaming/v2/ws`, conns, conn: (n: number) => eventually(() => conns[n], 5000) }
}

describe('the stream over WebSocket', () => {
  it('subscribes with its key, pings, reads the notifications, and subscribes again after a drop', async () => {
    const server = await wsServer()
    const notices: StreamNotice[] = []
    let subscribedCount = 0
    const listener = startStreamListener({
      url: server.url,
      key: 'k-ws',
      address: TREASURY,
      onNotice: (n) => notices.push(n),
      onSubscribed: () => void subscribedCount++,
      silenceMs: 900,
      backoffMs: { min: 50, max: 200 },
      log: () => undefined,
    })
    closers.push(() => listener.stop())
    const first = await server.conn(0)
    expect(first.headers['x-api-key']).toBe('k-ws')
    const subscribe = await eventually(() => first.got.find((m) => m.operation === 'subscribe'))
    expect(subscribe).toEqual({
      operation: 'subscribe',
      types: ['transactions', 'trace_invalidated'],
      addresses: [TREASURY.toRawString()],
      min_finality: 'pending',
      id: subscribe.id,
    })
    first.ws.send(JSON.stringify({ id: subscribe.id, status: 'subscribed' }))
    await eventually(() => listener.subscribed)
    // A ping within a third of the silence allowed, answered as the docs show: the connection stays.
    const ping = await eventually(() => first.got.find((m) => m.operation === 'ping'), 3000)
    first.ws.send(JSON.stringify({ id: ping.id, status: 'pong' }))
    first.ws.send(
      JSON.stringify({
        type: 'transactions',
        finality: 'confirmed',
        trace_external_hash_norm: TRACE,
        transactions: [
          {
            account: TREASURY.toRawString(),
            hash: Buffer.alloc(32, 7).toString('base64'),
            lt: '47000000000003',
            in_msg: { source: '0:' + 'cd'.repeat(32), value: '1500000000', message_content: { decoded: { type: 'text_comment', comment: 'axiom:mint:12' } } },
          },
        ],
      }),
    )
    first.ws.send(JSON.stringify({ type: 'trace_invalidated', trace_external_hash_norm: TRACE }))
    await eventually(() => notices.length === 2)
    expect(notices[0]).toMatchObject({ type: 'transactions', finality: 'confirmed', hashNorm: TRACE, txs: [{ comment: 'axiom:mint:12', valueNano: 1_500_000_000n }] })
    expect(notices[1]).toEqual({ type: 'trace_invalidated', hashNorm: TRACE })
    expect(subscribedCount).toBe(1)

    // Dropped: opened again after the backoff, and subscribed anew (the watcher then reads from its cursor).
    first.ws.terminate()
    const second = await server.conn(1)
    const again = await eventually(() => second.got.find((m) => m.operation === 'subscribe'))
    second.ws.send(JSON.stringify({ id: again.id, status: 'subscribed' }))
    await eventually(() => subscribedCount === 2)
  })

  it('a connection silent past the allowed time (no pong, no message) is opened again', async () => {
    const server = await wsServer()
    const listener = startStreamListener({ url: server.url, address: TREASURY, onNotice: () => undefined, onSubscribed: () => undefined, silenceMs: 400, backoffMs: { min: 50, max: 200 }, log: () => undefined })
    closers.push(() => listener.stop())
    await server.conn(0)
    await server.conn(1)
  })

  it("the local stand-in speaks it: subscribe, ping, the chain's traces pending then confirmed, unsubscribe", async () => {
    const chain = await LocalChain.create({ devWallets: 2, blockIntervalMs: 200 })
    closers.push(() => chain.stop())
    const app = Fastify({ logger: false })
    registerStreamingRoutes(app, chain)
    const base = await app.listen({ port: 0, host: '127.0.0.1' })
    closers.push(() => app.close())
    const url = `${base.replace('http', 'ws')}${STREAM_WS_PATH}`
    const treasury = chain.treasury.wallet.address

    // By hand: the operations and their answers.
    const raw = new WebSocket(url)
    closers.push(() => raw.terminate())
    const got: Array<Record<string, unknown>> = []
    raw.on('message', (d) => got.push(JSON.parse(d.toString()) as Record<string, unknown>))
    await new Promise((r) => raw.once('open', r))
    raw.send(JSON.stringify({ operation: 'ping', id: 'ping-42' }))
    raw.send(JSON.stringify({ operation: 'subscribe', types: ['transactions'], addresses: [], id: '0' }))
    raw.send(JSON.stringify({ operation: 'subscribe', types: ['transactions'], addresses: [treasury.toString()], min_finality: 'confirmed', id: '1' }))
    await eventually(() => got.length === 3)
    expect(got[0]).toEqual({ id: 'ping-42', status: 'pong' })
    expect(got[1]).toMatchObject({ id: '0', error: expect.stringContaining('addresses') })
    expect(got[2]).toEqual({ id: '1', status: 'subscribed' })

    // The listener: from pending on.
    const notices: StreamNotice[] = []
    const listener = startStreamListener({ url, address: treasury, onNotice: (n) => notices.push(n), onSubscribed: () => undefined, log: () => undefined })
    closers.push(() => listener.stop())
    await eventually(() => listener.subscribed)
    const ext = await chain.signedTransfer(chain.devWallet(0), [{ to: treasury, value: toNano('1'), body: commentCell('over ws') }])
    const accepted = await chain.accept(ext)
    await accepted.included
    await eventually(() => notices.filter((n) => n.type === 'transactions').length >= 2)
    const mine = notices.filter((n): n is Extract<StreamNotice, { type: 'transactions' }> => n.type === 'transactions' && n.hashNorm === accepted.hashNorm)
    expect(mine.map((n) => n.finality).slice(0, 2)).toEqual(['pending', 'confirmed'])
    expect(mine[1]!.txs.find((t) => t.account === treasury.toRawString())?.comment).toBe('over ws')
    // The hand-made subscription asked from confirmed on: it got the block, not the emulation.
    await eventually(() => got.some((m) => m.type === 'transactions' && m.finality === 'confirmed'))
    expect(got.some((m) => m.type === 'transactions' && m.finality === 'pending')).toBe(false)

    raw.send(JSON.stringify({ operation: 'unsubscribe', addresses: [treasury.toRawString()], id: '2' }))
    await eventually(() => got.some((m) => m.id === '2'))
    expect(got.find((m) => m.id === '2')).toEqual({ id: '2', status: 'unsubscribed' })
  })
})
