import { Address } from '@ton/core'
import { afterEach, describe, expect, it } from 'vitest'
import { readStreamMessage, sseParser, startStreamListener, type StreamListener, type StreamNotice } from '../../server/chain/stream-listener.ts'
import { eventually } from './support.ts'
import { sseServer } from './stream-support.ts'

/**
 * The Streaming API v2 client, fed raw text/event-stream written by hand from the TON Center docs
 * (docs.ton.org/ecosystem/api/toncenter/streaming/sse and /reference): `{"status": "subscribed"}` first,
 * `: keepalive` comment lines, `transactions` notifications with `finality`, `trace_external_hash_norm`
 * and v3 Transaction objects, `trace_invalidated`.
 */

const TREASURY = Address.parse('0:' + 'ab'.repeat(32))
const PAYER = '0:' + 'cd'.repeat(32)
const TX_HASH_B64 = Buffer.alloc(32, 7).toString('base64')
const TRACE = Buffer.alloc(32, 9).toString('base64')

/** A `transactions` notification as the reference shows it, with one v3 Transaction paying the treasury. */
const transactions = (finality: string, comment = 'axiom:mint:12') =>
  JSON.stringify({
    type: 'transactions',
    finality,
    trace_external_hash_norm: TRACE,
    transactions: [
      {
        account: TREASURY.toRawString().toUpperCase(),
        hash: TX_HASH_B64,
        lt: '47000000000003',
        now: 1780000000,
        in_msg: {
          hash: Buffer.alloc(32, 1).toString('base64'),
          source: PAYER,
          destination: TREASURY.toRawString(),
          value: '1500000000',
          message_content: { body: 'te6cck...', decoded: { type: 'text_comment', comment } },
        },
        out_msgs: [],
      },
    ],
    address_book: {},
  })

describe('the SSE framing', () => {
  it('reads data lines to a blank line, skips the keepalive comment, and joins a message split across chunks or lines', () => {
    const p = sseParser()
    const raw = `data: {"status": "subscribed"}\n\n: keepalive\n\ndata: ${transactions('pending')}\r\n\r\nevent: message\ndata: {"type":\ndata: "trace_invalidated", "trace_external_hash_norm": "${TRACE}"}\n\n`
    const out: string[] = []
    // Fed in 7-character chunks: a line, a CRLF, a message may be cut anywhere.
    for (let i = 0; i < raw.length; i += 7) out.push(...p.push(raw.slice(i, i + 7)))
    expect(out.map(readStreamMessage)).toEqual([
      'subscribed',
      {
        type: 'transactions',
        finality: 'pending',
        hashNorm: TRACE,
        txs: [{ hash: '07'.repeat(32), lt: 47000000000003n, account: TREASURY.toRawString(), source: PAYER, valueNano: 1_500_000_000n, comment: 'axiom:mint:12' }],
      },
      { type: 'trace_invalidated', hashNorm: TRACE },
    ])
  })

  it('drops what is not a notice it knows: bad JSON, other types, a transaction without its hash', () => {
    expect(readStreamMessage('{not json')).toBeNull()
    expect(readStreamMessage(JSON.stringify({ type: 'account_state_change', finality: 'confirmed', account: PAYER, state: {} }))).toBeNull()
    expect(readStreamMessage(JSON.stringify({ type: 'transactions', finality: 'soon', trace_external_hash_norm: TRACE, transactions: [] }))).toBeNull()
    const m = readStreamMessage(JSON.stringify({ type: 'transactions', finality: 'confirmed', trace_external_hash_norm: TRACE, transactions: [{ account: PAYER, lt: '1' }] }))
    expect(m).toEqual({ type: 'transactions', finality: 'confirmed', hashNorm: TRACE, txs: [] })
  })
})

let listener: StreamListener | null = null
let server: Awaited<ReturnType<typeof sseServer>> | null = null
afterEach(async () => {
  await listener?.stop()
  await server?.close()
  listener = null
  server = null
})

describe('the stream listener', () => {
  it("subscribes to the treasury's transactions from pending with the key, and hears each notice once subscribed", async () => {
    server = await sseServer()
    const notices: StreamNotice[] = []
    let subscribed = 0
    listener = startStreamListener({ url: server.url, key: 'k-123', address: TREASURY, onNotice: (n) => notices.push(n), onSubscribed: () => subscribed++, log: () => undefined })
    const res = await server.conn(0)
    expect(server.requests[0]!.body).toEqual({ types: ['transactions', 'trace_invalidated'], addresses: [TREASURY.toRawString()], min_finality: 'pending' })
    expect(server.requests[0]!.headers['x-api-key']).toBe('k-123')
    expect(server.requests[0]!.headers.accept).toBe('text/event-stream')
    // Nothing before the subscription is confirmed is taken for a notice.
    res.write(`data: ${transactions('pending')}\n\n`)
    res.write('data: {"status": "subscribed"}\n\n')
    res.write(': keepalive\n\n')
    res.write(`data: ${transactions('confirmed')}\n\n`)
    await eventually(() => notices.length === 1)
    expect(subscribed).toBe(1)
    expect(listener.subscribed).toBe(true)
    expect(notices[0]).toMatchObject({ type: 'transactions', finality: 'confirmed', hashNorm: TRACE })
  })

  it('opens the stream again when it ends, and reports the new subscription (nothing is replayed)', async () => {
    server = await sseServer()
    let subscribed = 0
    listener = startStreamListener({ url: server.url, address: TREASURY, onNotice: () => undefined, onSubscribed: () => subscribed++, backoffMs: { min: 50, max: 200 }, log: () => undefined })
    const first = await server.conn(0)
    first.write('data: {"status": "subscribed"}\n\n')
    await eventually(() => subscribed === 1)
    first.end()
    const second = await server.conn(1)
    second.write('data: {"status": "subscribed"}\n\n')
    await eventually(() => subscribed === 2)
    expect(listener.subscriptions).toBe(2)
  })

  it('opens a silent stream again (no keepalive within silenceMs), and backs off after a 429', async () => {
    server = await sseServer((n) => (n === 1 ? 429 : 200))
    let subscribed = 0
    listener = startStreamListener({
      url: server.url,
      address: TREASURY,
      onNotice: () => undefined,
      onSubscribed: () => subscribed++,
      silenceMs: 300,
      backoffMs: { min: 50, max: 400 },
      log: () => undefined,
    })
    const first = await server.conn(0)
    first.write('data: {"status": "subscribed"}\n\n')
    // Then silence: no message, no keepalive. The listener gives up on it, is refused once (429), then subscribes again.
    const third = await server.conn(2)
    third.write('data: {"status": "subscribed"}\n\n')
    await eventually(() => subscribed === 2)
    expect(server.requests.map((r) => r.res.statusCode)).toEqual([200, 429, 200])
  })
})
