import { toNano } from '@ton/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REFUND_FEE_NANO } from '../../server/main.ts'
import { commentCell, LocalChain, readComment } from '../../stand-ins/chain/local-chain.ts'
import type { TestServer } from '../server/support.ts'
import { type serveV4, startW5TreasuryStack } from './support.ts'

/**
 * The fee kept from a refund covers what the refund costs a W5 treasury (production's default
 * contract), measured on the local sandbox (mainnet's fee config): receiving the refused payment,
 * then sending the refund in the treasury's own transaction (gas, forwarding, storage).
 */
let ts: TestServer
let chain: LocalChain
let v4: Awaited<ReturnType<typeof serveV4>>
let w5: Awaited<ReturnType<typeof startW5TreasuryStack>>['w5']

beforeAll(async () => {
  ;({ ts, chain, v4, w5 } = await startW5TreasuryStack('axiom-test:w5-refund-fee'))
  // Deployed by the payouts' first pass, as after `npm run treasury:new` and a faucet.
  await ts.server.chain()!.settle()
})
afterAll(async () => {
  await ts?.close()
  await v4?.close()
})

const balance = async () => (await chain.blockchain.getContract(w5.address)).balance

describe('a W5 treasury’s refund', () => {
  it('sends the payment less the fee, and the fee covers its cost at least twice over (the treasury gains)', async () => {
    const svc = ts.server.chain()!
    const before = await balance()
    await chain.transfer(chain.devWallet(2), [{ to: w5.address, value: toNano('1'), body: commentCell('axiom:mint:424242'), bounce: true }])
    await svc.settle()
    const refunds = chain
      .transactionsOf(chain.devWallet(2).address)
      .map((t) => t.tx.inMessage)
      .filter((m) => m?.info.type === 'internal' && readComment(m.body) === 'axiom:refund:424242:unknown_bond')
      .map((m) => (m!.info.type === 'internal' ? m!.info.value.coins : 0n))
    expect(refunds).toEqual([toNano('1') - REFUND_FEE_NANO])
    // Measured 2026-11-28: 0.0035 TON (0.0003 to receive, 0.0032 to send).
    const gained = (await balance()) - before
    const cost = REFUND_FEE_NANO - gained
    expect(cost).toBeGreaterThan(0n)
    expect(cost * 2n).toBeLessThan(REFUND_FEE_NANO)
  })
})
