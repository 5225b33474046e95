import { toNano } from '@ton/core'
import Fastify from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { commentCell, LocalChain, type TraceEvent } from '../../stand-ins/chain/local-chain.ts'
import { registerStreamingRoutes, STREAM_SSE_PATH } from '../../stand-ins/chain/streaming-api.ts'
import { eventually, serveV4 } from './support.ts'

/**
 * The local chain on a clock (mainnet's 400 ms blocks): a message is accepted (pending) at once, lands
 * in the next block (confirmed), and is finalized blocks later; and its Streaming API v2 SSE endpoint
 * as the TON Center docs describe it (docs.ton.org/ecosystem/api/toncenter/streaming/sse, /reference).
 */
const closers: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c()
})

const clocked = async (blockIntervalMs = 300) => {
  const chain = await LocalChain.create({ devWallets: 2, blockIntervalMs })
  closers.push(() => chain.stop())
  return chain
}

describe('the clocked local chain', () => {
  it('accepts a message at once, puts it in the next block, and finalizes it two blocks later', async () => {
    const chain = await clocked()
    const seen: TraceEvent[] = []
    chain.onTrace((e) => seen.push(e))
    const treasury = chain.treasury.wallet.address
    const before = chain.transactionsOf(treasury).length
    const ext = await chain.signedTransfer(chain.devWallet(0), [{ to: treasury, value: toNano('1'), body: commentCell('hello') }])
    const accepted = await chain.accept(ext)
    // Accepted, not in a block: the stream says pending, the treasury's history does not have it yet.
    expect(seen.map((e) => (e.type === 'trace' ? e.finality : e.type))).toEqual(['pending'])
    expect(chain.transactionsOf(treasury)).toHaveLength(before)
    const result = await accepted.included
    expect(result.transactions.length).toBeGreaterThan(1)
    expect(chain.transactionsOf(treasury)).toHaveLength(before + 1)
    await eventually(() => seen.some((e) => e.type === 'trace' && e.finality === 'finalized'), 3000)
    const trace = seen.filter((e) => e.type === 'trace' && e.hashNorm === accepted.hashNorm).map((e) => (e.type === 'trace' ? e.finality : ''))
    expect(trace).toEqual(['pending', 'confirmed', 'finalized'])
    const confirmed = seen.find((e) => e.type === 'trace' && e.finality === 'confirmed')
    const finalized = seen.find((e) => e.type === 'trace' && e.finality === 'finalized')
    expect(confirmed?.type === 'trace' && confirmed.txs[0]!.block).toBeGreaterThan(0)
    // Blocks keep coming on the clock, messages or not.
    const at = chain.lastBlock.seqno
    await eventually(() => chain.lastBlock.seqno >= at + 2, 3000)
    expect(finalized?.type === 'trace' && finalized.txs.map((t) => t.block)).toEqual(confirmed?.type === 'trace' && confirmed.txs.map((t) => t.block))
  })

  it('takes a pending trace back: trace_invalidated, and its sender hears it never landed', async () => {
    const chain = await clocked(60_000)
    const seen: TraceEvent[] = []
    chain.onTrace((e) => seen.push(e))
    const ext = await chain.signedTransfer(chain.devWallet(0), [{ to: chain.treasury.wallet.address, value: toNano('1') }])
    const accepted = await chain.accept(ext)
    expect(chain.invalidatePending(accepted.hashNorm)).toBe(true)
    await expect(accepted.included).rejects.toThrow(/not taken into a block/)
    expect(seen.at(-1)).toEqual({ type: 'trace_invalidated', hashNorm: accepted.hashNorm })
  })

  it('refuses a message the wallet would not accept when it arrives, as a node does', async () => {
    const chain = await clocked()
    const ext = await chain.signedTransfer(chain.devWallet(0), [{ to: chain.treasury.wallet.address, value: toNano('1') }], { validUntil: 1 })
    await expect(chain.accept(ext)).rejects.toThrow()
  })

  it("v4 /send answers once the chain accepts the message, before its block, as a node does", async () => {
    const chain = await clocked(60_000)
    const v4 = await serveV4(chain)
    closers.push(() => v4.close())
    const treasury = chain.treasury.wallet.address
    const before = chain.transactionsOf(treasury).length
    const ext = await chain.signedTransfer(chain.devWallet(0), [{ to: treasury, value: toNano('1') }])
    const res = await fetch(`${v4.url}/send`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ boc: ext.toBoc().toString('base64') }) })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ status: 1 })
    // Accepted, waiting for a block a minute away: not in the history yet.
    expect(chain.transactionsOf(treasury)).toHaveLength(before)
    const stale = await chain.signedTransfer(chain.devWallet(1), [{ to: treasury, value: toNano('1') }], { validUntil: 1 })
    const refused = await fetch(`${v4.url}/send`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ boc: stale.toBoc().toString('base64') }) })
    expect(refused.status).toBe(400)
  })

  it('a block per message by default: send answers with its block, which the history has', async () => {
    const chain = await LocalChain.create({ devWallets: 1 })
    const seqno = chain.lastBlock.seqno
    const finality: string[] = []
    chain.onTrace((e) => finality.push(e.type === 'trace' ? e.finality : e.type))
    await chain.transfer(chain.devWallet(0), [{ to: chain.treasury.wallet.address, value: toNano('1') }])
    expect(chain.lastBlock.seqno).toBe(seqno + 1)
    expect(finality).toEqual(['pending', 'confirmed', 'finalized'])
  })
})

/** Reads an SSE response's raw text until `until` holds (or the time is up). */
const readSse = async (res: Response, until: (text: string) => boolean, timeoutMs = 5000): Promise<string> => {
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  const deadline = Date.now() + timeoutMs
  // One read outstanding at a time: a read left behind by the timer would take the next chunk.
  let reading: ReturnType<typeof reader.read> | null = null
  while (!until(text) && Date.now() < deadline) {
    reading ??= reader.read()
    const chunk = await Promise.race([reading, new Promise<null>((r) => setTimeout(() => r(null), 200))])
    if (chunk === null) continue
    reading = null
    if (chunk.done) break
    text += decoder.decode(chunk.value, { stream: true })
  }
  await reader.cancel()
  return text
}

describe("the local chain's Streaming API v2 (SSE)", () => {
  const serve = async (chain: LocalChain) => {
    const app = Fastify({ logger: false })
    const api = registerStreamingRoutes(app, chain)
    const url = await app.listen({ port: 0, host: '127.0.0.1' })
    closers.push(async () => {
      api.dropAll()
      await app.close()
    })
    return { url: `${url}${STREAM_SSE_PATH}`, api }
  }

  it("answers subscribed, then the treasury's transactions at each finality, as data lines of JSON", async () => {
    const chain = await clocked()
    const { url } = await serve(chain)
    const treasury = chain.treasury.wallet.address
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify({ types: ['transactions', 'trace_invalidated'], addresses: [treasury.toString()], min_finality: 'pending' }),
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    const sending = chain.transfer(chain.devWallet(1), [{ to: treasury, value: toNano('2'), body: commentCell('AXIOM-42') }])
    const text = await readSse(res, (t) => t.includes('"finality":"finalized"'))
    await sending
    const events = text
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => JSON.parse(block.slice(6)))
    expect(events[0]).toEqual({ status: 'subscribed' })
    expect(events.slice(1).map((e) => e.finality)).toEqual(['pending', 'confirmed', 'finalized'])
    const [pending, confirmed] = [events[1], events[2]]
    expect(pending.type).toBe('transactions')
    expect(pending.trace_external_hash_norm).toBe(confirmed.trace_external_hash_norm)
    // Only the subscribed account's transactions: the treasury's, its inbound payment with the comment.
    expect(confirmed.transactions).toHaveLength(1)
    const tx = confirmed.transactions[0]
    expect(tx.account).toBe(`0:${treasury.hash.toString('hex').toUpperCase()}`)
    expect(tx.in_msg.source).toBe(`0:${chain.devWallet(1).wallet.address.hash.toString('hex').toUpperCase()}`)
    expect(tx.in_msg.value).toBe(toNano('2').toString())
    expect(tx.in_msg.message_content.decoded).toEqual({ type: 'text_comment', comment: 'AXIOM-42' })
    expect(pending.transactions[0].emulated).toBe(true)
    expect(confirmed.transactions[0].emulated).toBe(false)
    expect(tx.hash).toBe(chain.transactionsOf(treasury).at(-1)!.tx.hash().toString('base64'))
  })

  it('min_finality confirmed skips the pending snapshot; a bad subscription is refused', async () => {
    const chain = await clocked()
    const { url } = await serve(chain)
    const bad = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ types: ['transactions'] }) })
    expect(bad.status).toBe(400)
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ types: ['transactions'], addresses: [chain.treasury.wallet.address.toRawString()], min_finality: 'confirmed' }),
    })
    await chain.transfer(chain.devWallet(0), [{ to: chain.treasury.wallet.address, value: toNano('1') }])
    const text = await readSse(res, (t) => t.includes('"finality":"finalized"'))
    expect([...text.matchAll(/"finality":"(\w+)"/g)].map((m) => m[1])).toEqual(['confirmed', 'finalized'])
  })

  it('tells a subscriber of a pending trace taken back', async () => {
    const chain = await clocked(60_000)
    const { url } = await serve(chain)
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ types: ['transactions', 'trace_invalidated'], addresses: [chain.treasury.wallet.address.toString()], min_finality: 'pending' }),
    })
    const ext = await chain.signedTransfer(chain.devWallet(0), [{ to: chain.treasury.wallet.address, value: toNano('1') }])
    const accepted = await chain.accept(ext)
    chain.invalidatePending(accepted.hashNorm)
    const text = await readSse(res, (t) => t.includes('trace_invalidated'))
    expect(text).toContain(`data: ${JSON.stringify({ type: 'trace_invalidated', trace_external_hash_norm: accepted.hashNorm })}\n\n`)
  })
})
