import { afterAll, describe, expect, it } from 'vitest'
import { localTreasuryAddress } from '../../stand-ins/chain/dev-keys.ts'
import { LocalChain, readComment } from '../../stand-ins/chain/local-chain.ts'
import { saleComment, startServer, type RunningServer } from '../../server/main.ts'
import { serveV4 } from '../chain/support.ts'
import { call, signInitData, testDatabase } from '../server/support.ts'

/**
 * Two backends on one PostgreSQL, each with the chain service over one chain's v4 API: only the
 * holder of the `payouts` lease sends, and when it goes the other takes over the message left in
 * flight, without paying anything twice.
 */
const RETRY_MS = 100
const servers: RunningServer[] = []
const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const s of servers) await s.close().catch(() => undefined)
  for (const c of closers) await c()
})

const paymentsOf = (chain: LocalChain, id: bigint): bigint[] =>
  chain
    .transactionsOf(chain.devWallet(1).address)
    .map((t) => t.tx.inMessage)
    .filter((m) => m?.info.type === 'internal' && readComment(m.body) === saleComment(id))
    .map((m) => (m!.info.type === 'internal' ? m!.info.value.coins : 0n))

describe('one payout loop across instances', () => {
  it('pays each sale once: the holder pays, the other takes over what was in flight when the holder closes', async () => {
    const db = await testDatabase()
    const chain = await LocalChain.create({ devWallets: 2 })
    const v4 = await serveV4(chain)
    closers.push(v4.close)
    const start = async () => {
      const s = await startServer({ port: 0, dbPath: db, leaseRetryMs: RETRY_MS, welcomeBalanceNano: 0n, treasuryAddress: localTreasuryAddress() })
      servers.push(s)
      const svc = await s.startChain({
        endpoint: v4.url,
        treasury: { version: 'v4r2', keyPair: chain.treasury.keyPair, wallet: chain.treasury.wallet },
        fromStart: true,
        pollMs: 100,
        payoutMs: 0,
      })
      return { s, svc }
    }
    const { s: a, svc: ca } = await start()
    const { s: b, svc: cb } = await start()

    const reg = await call(a.url, 'POST', '/auth/register', { body: { init_data: signInitData({ id: 9801 }, Math.floor(Date.now() / 1000)) } })
    const token = reg.body.token as string
    await a.admin.credit(9801, '100')
    const sale = async () => {
      const r = await call(b.url, 'POST', '/withdraw/create', {
        token,
        body: { token_amount: '10', address: chain.devWallet(1).friendly },
        headers: { 'idempotency-key': `sale-${Math.random()}` },
      })
      expect(r.status).toBe(200)
      return BigInt(r.body.id)
    }
    const first = await sale()
    const second = await sale()

    expect(await cb.payouts.pass()).toEqual([])
    expect((await ca.payouts.pass()).map((r) => r.withdrawalId)).toEqual([first, second])
    await ca.watcher.pass()
    expect(await cb.payouts.pass()).toEqual([])

    // A signed a third sale's message (recorded `sending`) and went before it reached the chain.
    const third = await sale()
    const { queueDueSales, claimForMessage, outgoingPayments } = await import('../../server/chain/payment-rows.ts')
    const { signTransfer } = await import('../../server/chain/payouts.ts')
    const { normalizedMessageHash } = await import('../../server/chain/watcher.ts')
    const { loadMessage } = await import('@ton/core')
    await queueDueSales(a.ctx)
    const row = (await outgoingPayments(a.ctx, ['queued']))[0]!
    const seqno = await chain.seqnoOf(chain.treasury)
    const validUntil = Math.floor(Date.now() / 1000) + 60
    const cell = signTransfer({ version: 'v4r2', keyPair: chain.treasury.keyPair, wallet: chain.treasury.wallet }, seqno, validUntil, [row], false)
    await claimForMessage(a.ctx, [row.id], { seqno, validUntil, msgHash: normalizedMessageHash(loadMessage(cell.beginParse())), boc: cell.toBoc().toString('base64') })
    await a.close()
    const deadline = Date.now() + 10_000
    while ((await outgoingPayments(b.ctx, ['paid'])).length < 3 && Date.now() < deadline) {
      await cb.payouts.pass()
      await cb.watcher.pass()
      await new Promise((r) => setTimeout(r, 50))
    }
    for (const id of [first, second, third]) expect(paymentsOf(chain, id)).toHaveLength(1)
    const statuses = await b.ctx.db.all<{ status: string }>('SELECT status FROM withdrawals ORDER BY id')
    expect(statuses.map((r) => r.status)).toEqual(['completed', 'completed', 'completed'])
  })
})
