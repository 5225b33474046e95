import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { saleComment } from '../../server/main.ts'
import { commentCell, LocalChain, readComment } from '../../stand-ins/chain/local-chain.ts'
import type { Session, TestServer } from '../server/support.ts'
import { type serveV4, startW5TreasuryStack } from './support.ts'

/**
 * A W5 (v5r1) treasury, as production's default: funded but not deployed at first (as after
 * `npm run treasury:new` and a faucet), it takes a non-bounceable bond payment, is deployed by the
 * payouts, and pays many sales in one transfer.
 */
let ts: TestServer
let chain: LocalChain
let v4: Awaited<ReturnType<typeof serveV4>>
let w5: Awaited<ReturnType<typeof startW5TreasuryStack>>['w5']
let user: Session

beforeAll(async () => {
  ;({ ts, chain, v4, w5 } = await startW5TreasuryStack('axiom-test:w5-treasury'))
  user = await ts.login(8901)
  await ts.server.admin.credit(8901, '1000')
})
afterAll(async () => {
  await ts?.close()
  await v4?.close()
})

const accountState = async () => (await chain.blockchain.getContract(w5.address)).accountState?.type

describe('a W5 treasury through the v4 path', () => {
  it('credits a non-bounceable bond payment made before the treasury is deployed', async () => {
    expect(await accountState()).not.toBe('active')
    const created = await user.call('POST', '/mint/create', { body: { amount: 10, days: 30 } })
    await chain.transfer(chain.devWallet(1), [
      { to: w5.address, value: BigInt(created.body.payment.amount_nano), body: commentCell(created.body.payment.comment), bounce: false },
    ])
    const svc = ts.server.chain()!
    await svc.watcher.pass()
    // The faucet's top-up first (no bond comment), then the bond.
    expect(svc.watcher.decided.map((r) => r.outcome)).toEqual(['ignored', 'activated'])
  })

  it('is deployed by the payouts, then pays 12 sales in one transfer, each once', async () => {
    const svc = ts.server.chain()!
    await svc.payouts.pass()
    expect(await accountState()).toBe('active')
    const sales: bigint[] = []
    for (let i = 0; i < 12; i++) {
      const r = await user.call('POST', '/withdraw/create', { body: { token_amount: `2.${i + 1}`, address: chain.devWallet(i % 3).friendly } })
      expect(r.status).toBe(200)
      sales.push(BigInt(r.body.id))
    }
    const sent = await svc.payouts.pass()
    expect(sent).toHaveLength(12)
    expect(new Set(sent.map((r) => r.msgHash)).size).toBe(1)
    await svc.watcher.pass()
    const rows = (await svc.outgoing()).filter((r) => r.kind === 'sale')
    expect(rows.map((r) => r.state)).toEqual(Array(12).fill('paid'))
    for (const [i, id] of sales.entries()) {
      const got = chain
        .transactionsOf(chain.devWallet(i % 3).address)
        .map((t) => t.tx.inMessage)
        .filter((m) => m?.info.type === 'internal' && readComment(m.body) === saleComment(id))
      expect(got).toHaveLength(1)
    }
    expect(await svc.payouts.pass()).toEqual([])
  })
})
