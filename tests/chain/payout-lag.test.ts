import { TonClient4 } from '@ton/ton'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { outgoingPayments } from '../../server/chain/payment-rows.ts'
import { createPayoutSender } from '../../server/chain/payouts.ts'
import { readBreaker } from '../../server/chain/payout-breaker.ts'
import { NO_PAYOUT_LIMITS } from '../../server/config/config.ts'
import { readChainSeen, TREASURY_CURSOR } from '../../server/domain/chain-cursor.ts'
import { saleComment, type Lease } from '../../server/main.ts'
import { readComment } from '../../stand-ins/chain/local-chain.ts'
import { startStack, type Stack } from './support.ts'

/**
 * The breaker's watcher-lag cause (AXIOM_PAYOUT_MAX_LAG_S) on the sandbox chain through the v4 API:
 * "behind" is the chain's last block time (getLastBlock().now) against the time of the block the
 * watcher last read the treasury's history up to (chain_seen). The watcher's timer and stream are off,
 * so it passes only when the test says; the test moves the sandbox's clock on.
 */
let s: Stack
let client: TonClient4
beforeAll(async () => {
  // No stream: a treasury transaction it reported would wake the watcher when the test has it lag.
  s = await startStack({ watchIntervalMs: 0, stream: false })
  client = new TonClient4({ endpoint: s.ton.v4Endpoint, timeout: 5000 })
})
afterAll(async () => {
  await s?.close()
})

const always: Lease = { held: () => true, onAcquired: () => undefined }
const ctx = () => s.ts.server.ctx

describe('payouts wait while the watcher is behind the chain', () => {
  it('a due sale is not sent while the watcher lags more than maxLagS; once it catches up, it is paid once', async () => {
    const p = createPayoutSender(ctx(), {
      client,
      treasury: { version: 'v4r2', keyPair: s.ton.chain.treasury.keyPair, wallet: s.ton.chain.treasury.wallet },
      lease: always,
      maxFailures: 5,
      limits: { ...NO_PAYOUT_LIMITS, maxLagS: 5 },
      log: () => undefined,
    })
    await s.ts.login(7301)
    await s.ts.server.admin.credit(7301, '5000')
    const session = await s.ts.login(7301)
    const res = await session.call('POST', '/withdraw/create', { body: { token_amount: '2', address: s.ton.chain.devWallet(1).friendly } })
    expect(res.status).toBe(200)
    const id = BigInt(res.body.id)
    const onChain = () =>
      s.ton.chain
        .transactionsOf(s.ton.chain.devWallet(1).address)
        .map((t) => t.tx.inMessage)
        .filter((m) => m?.info.type === 'internal' && readComment(m.body) === saleComment(id))
    const state = async () => (await outgoingPayments(ctx())).find((r) => r.withdrawalId === id)?.state

    // The watcher has read everything up to the chain's last block.
    await s.ton.service.watcher.pass()
    const seen = (await readChainSeen(ctx(), TREASURY_CURSOR))!
    // The chain's clock (the sandbox's, which its v4 API gives as the last block's time) moves 10 s on;
    // the watcher does not pass.
    s.ton.chain.blockchain.now = seen + 10
    expect((await client.getLastBlock()).now - seen).toBe(10)

    for (let i = 0; i < 3; i++) await p.pass()
    expect(await state()).toBe('queued')
    expect(onChain()).toEqual([])
    expect((await readBreaker(ctx().db))!.causes).toEqual([expect.stringMatching(/the watcher is 10 s behind the chain \(limit 5 s\)/)])
    expect(await readChainSeen(ctx(), TREASURY_CURSOR)).toBe(seen)

    // The watcher catches up: the sale goes, once.
    await s.ton.service.watcher.pass()
    // Sent, it lands in the chain's next block; the watcher confirms it once it reads that block.
    for (const until = Date.now() + 10_000; (await state()) !== 'paid' && Date.now() < until; ) {
      await p.pass()
      await s.ton.service.watcher.pass()
      await new Promise((r) => setTimeout(r, 50))
    }
    expect(await state()).toBe('paid')
    for (let i = 0; i < 2; i++) {
      await p.pass()
      await s.ton.service.watcher.pass()
    }
    expect(onChain()).toHaveLength(1)
    expect((await readBreaker(ctx().db))!.causes).toEqual([])
  })
})
