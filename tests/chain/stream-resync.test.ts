import { Address } from '@ton/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commentCell, type ChainTx } from '../../stand-ins/chain/local-chain.ts'
import type { LiveSocket, Session } from '../server/support.ts'
import { eventually, startStack, type Stack } from './support.ts'
import { sseServer } from './stream-support.ts'

/**
 * The watcher on a stream that misbehaves as the docs allow (docs.ton.org/ecosystem/api/toncenter/
 * streaming/reference: several snapshots per trace, `trace_invalidated` for a pending one; /sse: no
 * replay after a reconnect): the chain is clocked, the watcher's poll is off and no block wakes it, so
 * only the stream (a hand-written SSE server here, its notifications written from the reference) and
 * the resynchronisation after each subscription can make it read the history. Events come reordered
 * and twice, a pending payment is taken back, the stream drops mid-burst and payments land while it
 * is down: every payment is credited once, from the v4 history, and the one taken back never is.
 */
let s: Stack
let stream: Awaited<ReturnType<typeof sseServer>>
let user: Session
let live: LiveSocket
beforeAll(async () => {
  stream = await sseServer()
  s = await startStack({ blockIntervalMs: 100, watchIntervalMs: 0, streamUrl: stream.url })
  user = await s.ts.login(8101)
  live = await s.ts.socket(user)
})
afterAll(async () => {
  live?.close()
  await s?.close()
  await stream?.close()
})

let nextAmount = 10
const createMint = async () => {
  const res = await user.call('POST', '/mint/create', { body: { amount: nextAmount++, days: 30 } })
  expect(res.status).toBe(200)
  return res.body as { mint: { id: number }; payment: { amount_nano: string; comment: string } }
}

const statusOf = async (id: number) => ((await user.call('GET', '/mint/')).body.items as Array<{ id: number; status: string }>).find((m) => m.id === id)?.status

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`

/** Pays a bond from dev wallet 0; answers its trace's hash and the treasury's transaction, once in a block. */
const pay = async (m: Awaited<ReturnType<typeof createMint>>) => {
  const chain = s.ton.chain
  const key = chain.devWallet(0)
  return chain.withKey(key, async () => {
    const ext = await chain.signedTransfer(key, [{ to: chain.treasury.wallet.address, value: BigInt(m.payment.amount_nano), body: commentCell(m.payment.comment), bounce: true }])
    const accepted = await chain.accept(ext)
    await accepted.included
    const tx = chain.transactionsOf(chain.treasury.wallet.address).at(-1)!
    return { hashNorm: accepted.hashNorm, tx }
  })
}

/** A `transactions` notification, as the reference's schema, for the treasury's transaction of a payment. */
const notification = (finality: string, hashNorm: string, tx: ChainTx, comment: string) => {
  const m = tx.tx.inMessage!
  const info = m.info.type === 'internal' ? m.info : null
  return `data: ${JSON.stringify({
    type: 'transactions',
    finality,
    trace_external_hash_norm: hashNorm,
    transactions: [
      {
        account: raw(tx.address),
        hash: tx.tx.hash().toString('base64'),
        lt: tx.tx.lt.toString(),
        now: tx.tx.now,
        in_msg: {
          source: info ? raw(info.src) : null,
          destination: raw(tx.address),
          value: info ? info.value.coins.toString() : null,
          message_content: { decoded: { type: 'text_comment', comment } },
        },
        out_msgs: [],
        emulated: finality === 'pending',
      },
    ],
  })}\n\n`
}

describe('the watcher on a stream that drops, reorders, repeats and takes back', () => {
  it('credits every payment once, from the history, and never the one taken back', async () => {
    const first = await stream.conn(0)
    first.write('data: {"status": "subscribed"}\n\n')
    const [b1, b2, b5] = [await createMint(), await createMint(), await createMint()]
    const p1 = await pay(b1)
    const p2 = await pay(b2)
    // In the history, but nothing woke the watcher: no poll, and the stream has said nothing yet.
    await new Promise((r) => setTimeout(r, 400))
    expect([await statusOf(b1.mint.id), await statusOf(b2.mint.id)]).toEqual(['pending', 'pending'])

    // A burst, out of order and repeated: b2 confirmed before b1 is even pending; b5's payment is
    // pending, then taken back (it never lands); b2 again; then the stream drops in the middle of a message.
    const fake = Buffer.alloc(32, 5).toString('base64')
    const fakeTx = { ...p1.tx, tx: p1.tx.tx } as ChainTx
    first.write(notification('confirmed', p2.hashNorm, p2.tx, b2.payment.comment))
    first.write(notification('pending', p1.hashNorm, p1.tx, b1.payment.comment))
    first.write(notification('pending', fake, fakeTx, b5.payment.comment))
    first.write(notification('confirmed', p2.hashNorm, p2.tx, b2.payment.comment))
    first.write(`data: ${JSON.stringify({ type: 'trace_invalidated', trace_external_hash_norm: fake })}\n\n`)
    first.write(notification('confirmed', p1.hashNorm, p1.tx, b1.payment.comment))
    first.write('data: {"type": "transactions", "fina')
    await eventually(async () => (await statusOf(b1.mint.id)) === 'active' && (await statusOf(b2.mint.id)) === 'active', 5000)
    // b5: seen, then taken back; the app was told both.
    await live.next('chain:payment', (d) => d.kind === 'bond' && d.id === b5.mint.id && d.state === 'seen')
    await live.next('chain:payment', (d) => d.kind === 'bond' && d.id === b5.mint.id && d.state === 'withdrawn')
    first.destroy()

    // Down: the listener opens the stream again; meanwhile two payments land, and the new stream does not replay them.
    const second = await stream.conn(1)
    const [b3, b4] = [await createMint(), await createMint()]
    const p3 = await pay(b3)
    await pay(b4)
    await new Promise((r) => setTimeout(r, 400))
    expect([await statusOf(b3.mint.id), await statusOf(b4.mint.id)]).toEqual(['pending', 'pending'])
    // Subscribed again, and nothing more: the watcher reads the history from its cursor.
    second.write('data: {"status": "subscribed"}\n\n')
    await eventually(async () => (await statusOf(b3.mint.id)) === 'active' && (await statusOf(b4.mint.id)) === 'active', 5000)
    // Then old snapshots again, and later ones of what was credited meanwhile.
    second.write(notification('finalized', p2.hashNorm, p2.tx, b2.payment.comment))
    second.write(notification('confirmed', p3.hashNorm, p3.tx, b3.payment.comment))
    second.write(notification('confirmed', p1.hashNorm, p1.tx, b1.payment.comment))
    second.write(notification('finalized', p3.hashNorm, p3.tx, b3.payment.comment))
    await new Promise((r) => setTimeout(r, 500))

    expect(await statusOf(b5.mint.id)).toBe('pending')
    const records = await s.ton.service.records()
    const activated = records.filter((r) => r.outcome === 'activated').map((r) => Number(r.mintId))
    expect(activated.sort()).toEqual([b1.mint.id, b2.mint.id, b3.mint.id, b4.mint.id].sort())
    // Each treasury transaction decided once: nothing refunded as a duplicate, nothing queued to pay back.
    expect(new Set(records.map((r) => r.txHash)).size).toBe(records.length)
    expect(records.filter((r) => r.outcome !== 'activated')).toEqual([])
    expect(await s.ton.service.outgoing()).toEqual([])
  })
})
