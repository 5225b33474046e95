import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { TREASURY_CURSOR } from '../../server/chain/watcher.ts'
import { localTreasuryAddress } from '../../stand-ins/chain/dev-keys.ts'
import { commentCell } from '../../stand-ins/chain/local-chain.ts'
import { attachLocalTon, type LocalTon } from '../../stand-ins/local-ton.ts'
import { startTestServer, type Session, type TestServer } from '../server/support.ts'
import { eventually } from './support.ts'

/**
 * The local stack restarted under a kept database, as `npm start` run twice on `.data/axiom.db`: the
 * backend and its local TON stack started anew on the same file. The new local chain starts empty;
 * its treasury's first payment has the logical time the old chain's had (the watcher's cursor), with
 * another hash. The bond it pays activates.
 */
const dir = mkdtempSync(join(tmpdir(), 'axiom-local-restart-'))
const open: Array<{ close(): Promise<void> }> = []
afterAll(async () => {
  for (const o of open.reverse()) await o.close().catch(() => undefined)
  rmSync(dir, { recursive: true, force: true })
})

const startLocalStack = async (dbPath: string): Promise<{ ts: TestServer; ton: LocalTon; close(): Promise<void> }> => {
  const ts = await startTestServer({ dbPath, treasuryAddress: localTreasuryAddress() })
  ts.clock.now = Math.floor(Date.now() / 1000)
  const ton = await attachLocalTon(ts.server, { port: 0, payoutIntervalMs: 0, heartbeatMs: 200, autoApprove: 'off' })
  let closed = false
  const stack = {
    ts,
    ton,
    close: async () => {
      if (closed) return
      closed = true
      await ton.close()
      await ts.close()
    },
  }
  open.push(stack)
  return stack
}

/** Buys a bond as `user` and pays it from dev wallet `wallet` of `ton`'s chain; answers its id. */
const buyAndPay = async (ton: LocalTon, user: Session, wallet: number, amount: number) => {
  const res = await user.call('POST', '/mint/create', { body: { amount, days: 30 } })
  expect(res.status).toBe(200)
  const { mint, payment } = res.body as { mint: { id: number }; payment: { amount_nano: string; comment: string } }
  await ton.chain.transfer(ton.chain.devWallet(wallet), [
    { to: ton.treasuryAddress, value: BigInt(payment.amount_nano), body: commentCell(payment.comment), bounce: true },
  ])
  return mint.id
}

const statusOf = async (user: Session, id: number) =>
  ((await user.call('GET', '/mint/')).body.items as Array<{ id: number; status: string }>).find((m) => m.id === id)?.status

describe('the local stack restarted on a kept database', () => {
  it("activates the first bond bought after the restart, though the new chain's payment has the old cursor's logical time", async () => {
    const dbPath = join(dir, 'axiom.db')
    const first = await startLocalStack(dbPath)
    const alice = await first.ts.login(9301)
    const paidBefore = await buyAndPay(first.ton, alice, 1, 10)
    await eventually(async () => (await statusOf(alice, paidBefore)) === 'active')
    const oldCursor = await first.ts.server.readChainCursor(TREASURY_CURSOR)
    expect(oldCursor).not.toBeNull()
    await first.close()

    const second = await startLocalStack(dbPath)
    const bob = await second.ts.login(9302)
    const paidAfter = await buyAndPay(second.ton, bob, 1, 11)
    // The fault's ground: the new chain's payment has the old cursor's lt, not its hash.
    const payment = second.ton.chain.transactionsOf(second.ton.treasuryAddress).at(-1)!.tx
    expect(payment.lt).toBe(oldCursor!.lt)
    expect(payment.hash().toString('hex')).not.toBe(oldCursor!.txHash)

    await eventually(async () => (await statusOf(bob, paidAfter)) === 'active', 5000)
    expect(second.ton.watcher.records.map((r) => [r.mintId, r.outcome])).toEqual([[BigInt(paidAfter), 'activated']])
    expect(await second.ts.server.readChainCursor(TREASURY_CURSOR)).toEqual({ lt: payment.lt, txHash: payment.hash().toString('hex') })
    // Nothing refunded, and the bond of before the restart is untouched.
    expect((await second.ton.service.outgoing()).filter((r) => r.kind === 'refund')).toEqual([])
    expect(await statusOf(await second.ts.login(9301), paidBefore)).toBe('active')

    // And the watcher goes on on the new chain: the next bond activates too.
    const next = await buyAndPay(second.ton, bob, 2, 12)
    await eventually(async () => (await statusOf(bob, next)) === 'active', 5000)
    await second.close()
  })
})
