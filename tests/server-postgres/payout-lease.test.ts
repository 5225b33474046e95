import { afterAll, describe, expect, it } from 'vitest'
import { localTreasuryAddress } from '../../stand-ins/chain/dev-keys.ts'
import { LocalChain, readComment } from '../../stand-ins/chain/local-chain.ts'
import { createPayoutProcessor, saleComment } from '../../stand-ins/chain/payouts.ts'
import { startServer, type RunningServer } from '../../server/main.ts'
import { call, signInitData, testDatabase } from '../server/support.ts'

/**
 * Two backends on one PostgreSQL, each with a payout loop over one chain: only the holder of the
 * `payouts` lease pays, and when it goes the other takes over, finishing what was left `sending`
 * without paying anything twice.
 */
const RETRY_MS = 100
const servers: RunningServer[] = []
afterAll(async () => {
  for (const s of servers) await s.close().catch(() => undefined)
})

const paymentsOf = (chain: LocalChain, id: bigint): bigint[] =>
  chain
    .transactionsOf(chain.devWallet(1).address)
    .map((t) => t.tx.inMessage)
    .filter((m) => m?.info.type === 'internal' && readComment(m.body) === saleComment(id))
    .map((m) => (m!.info.type === 'internal' ? m!.info.value.coins : 0n))

describe('one payout loop across instances', () => {
  it('pays each sale once: the holder pays, the other waits, and takes over the sending ones when the holder closes', async () => {
    const db = await testDatabase()
    const start = async () => {
      const s = await startServer({ port: 0, dbPath: db, leaseRetryMs: RETRY_MS, welcomeBalanceNano: 0n, treasuryAddress: localTreasuryAddress() })
      servers.push(s)
      return s
    }
    const a = await start()
    const b = await start()
    const chain = await LocalChain.create({ devWallets: 2 })
    const pa = createPayoutProcessor(chain, a, { intervalMs: 0, lease: await a.lease('payouts') })
    const pb = createPayoutProcessor(chain, b, { intervalMs: 0, lease: await b.lease('payouts') })

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

    expect(await pb.processOnce()).toEqual([])
    expect((await pa.processOnce()).map((r) => [r.withdrawalId, r.outcome])).toEqual([
      [first, 'completed'],
      [second, 'completed'],
    ])
    expect(await pb.processOnce()).toEqual([])

    // A claimed a third sale (committed `sending`) and went before sending it.
    const third = await sale()
    await a.ctx.db.run(`UPDATE withdrawals SET status = 'sending' WHERE id = ?`, third)
    await a.close()
    const deadline = Date.now() + 5_000
    while ((await pb.recovered).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    expect((await pb.recovered).map((r) => [r.withdrawalId, r.outcome])).toEqual([[third, 'completed']])
    expect(await pb.processOnce()).toEqual([])

    for (const id of [first, second, third]) expect(paymentsOf(chain, id)).toHaveLength(1)
    const statuses = await b.ctx.db.all<{ status: string }>('SELECT status FROM withdrawals ORDER BY id')
    expect(statuses.map((r) => r.status)).toEqual(['completed', 'completed', 'completed'])
  })
})
