import Fastify from 'fastify'
import { afterAll, describe, expect, it } from 'vitest'
import { localTreasuryAddress } from '../../stand-ins/chain/dev-keys.ts'
import { commentCell, LocalChain } from '../../stand-ins/chain/local-chain.ts'
import { registerStreamingRoutes, STREAM_SSE_PATH } from '../../stand-ins/chain/streaming-api.ts'
import { registerV4Routes } from '../../stand-ins/chain/v4-api.ts'
import { startServer, type ChainService, type RunningServer } from '../../server/main.ts'
import { RELAXED_RATE_LIMITS } from '../support/relaxed-limits.ts'
import { call, collect, openSocket, signInitData, testDatabase, type LiveSocket } from '../server/support.ts'

/**
 * Two backends on one PostgreSQL, each running the chain service with the stream (as two workers
 * would, or an `all` instance and a worker): both listen to the clocked chain's Streaming API, and
 * both hear every treasury transaction. The user, with a socket on each instance, is told each
 * `chain:payment` once on each: a bond's payment seen, a sale's payout sent and paid. One instance
 * tells (the watcher's lease holder); every instance passes it to the sockets it holds.
 */
const RETRY_MS = 100
const servers: RunningServer[] = []
const closers: Array<() => Promise<void> | void> = []
afterAll(async () => {
  for (const c of closers.reverse()) await c()
  for (const s of servers) await s.close().catch(() => undefined)
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('chain:payment across instances', () => {
  it('each signal reaches the user once per socket, not once per instance listening to the stream', async () => {
    const db = await testDatabase()
    const chain = await LocalChain.create({ devWallets: 3, blockIntervalMs: 400 })
    closers.push(() => chain.stop())
    const ton = Fastify({ logger: false })
    registerV4Routes(ton, chain)
    const streaming = registerStreamingRoutes(ton, chain)
    const url = await ton.listen({ port: 0, host: '127.0.0.1' })
    closers.push(async () => {
      streaming.dropAll()
      await ton.close()
    })

    const start = async (): Promise<{ s: RunningServer; svc: ChainService }> => {
      const s = await startServer({
        port: 0,
        dbPath: db,
        leaseRetryMs: RETRY_MS,
        welcomeBalanceNano: 0n,
        rateLimits: RELAXED_RATE_LIMITS,
        treasuryAddress: localTreasuryAddress(),
      })
      servers.push(s)
      const svc = await s.startChain({
        endpoint: url,
        treasury: { version: 'v4r2', keyPair: chain.treasury.keyPair, wallet: chain.treasury.wallet },
        fromStart: true,
        pollMs: 1000,
        payoutMs: 0,
        stream: { url: `${url}${STREAM_SSE_PATH}` },
      })
      return { s, svc }
    }
    const a = await start()
    const b = await start()
    // Both subscribed: each instance hears every transaction.
    await expect.poll(() => streaming.open, { timeout: 10_000 }).toBe(2)

    const telegramId = 9951
    const r = await call(a.s.url, 'POST', '/auth/register', { body: { init_data: signInitData({ id: telegramId }, Math.floor(Date.now() / 1000)) } })
    expect(r.status).toBe(200)
    const token = r.body.token as string
    await a.s.admin.credit(telegramId, '100')
    const socketOn = async (s: RunningServer): Promise<LiveSocket> => {
      const live = collect(await openSocket(s.url, '/api/ws/'))
      live.ws.send(token)
      await live.next('user:balance')
      closers.push(() => live.close())
      return live
    }
    const sockets = [await socketOn(a.s), await socketOn(b.s)]
    const signals = (live: LiveSocket) => live.events.filter((e) => e.event === 'chain:payment').map((e) => e.data as { kind: string; id: number; state: string })

    // A bond paid: its payment is seen on the stream, then credited.
    const created = await call(b.s.url, 'POST', '/mint/create', { token, body: { amount: 20, days: 30 } })
    expect(created.status).toBe(200)
    const mintId = Number(created.body.mint.id)
    await chain.transfer(chain.devWallet(1), [
      { to: chain.treasury.address, value: BigInt(created.body.payment.amount_nano), body: commentCell(created.body.payment.comment), bounce: true },
    ])
    for (const live of sockets) await live.next('user:mint', (d) => Number(d.mint_id ?? d.id) === mintId && d.status === 'active', 10_000)

    // A sale: its payout sent, then paid, whichever instance holds the payouts' lease.
    const sale = await call(a.s.url, 'POST', '/withdraw/create', { token, body: { token_amount: '5', address: chain.devWallet(2).friendly } })
    expect(sale.status).toBe(200)
    const saleId = Number(sale.body.id)
    // The treasury's message finalized (two blocks after its own): the stream's last word on it.
    const finalized = new Promise<void>((resolve) => {
      const off = chain.onTrace((e) => {
        if (e.type === 'trace' && e.finality === 'finalized' && e.txs.some((t) => t.address.equals(chain.treasury.wallet.address) && t.tx.inMessage?.info.type === 'external-in')) {
          off()
          resolve()
        }
      })
    })
    await Promise.all([a.svc.payouts.pass(), b.svc.payouts.pass()])
    for (const live of sockets) {
      await expect.poll(() => signals(live).some((d) => d.kind === 'sale' && d.id === saleId && d.state === 'paid'), { timeout: 10_000 }).toBe(true)
    }
    // Its notice crosses both streams and a pass after it, and both watchers poll: nothing more is told.
    await finalized
    await sleep(1_500)

    for (const live of sockets) {
      expect(signals(live).filter((d) => d.id === mintId && d.kind === 'bond')).toEqual([{ kind: 'bond', id: mintId, state: 'seen' }])
      expect(signals(live).filter((d) => d.id === saleId && d.kind === 'sale')).toEqual([
        { kind: 'sale', id: saleId, state: 'sent' },
        { kind: 'sale', id: saleId, state: 'paid' },
      ])
    }
  })
})
