import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runAdminCommand } from '../../server/admin.ts'
import { auditEntries } from '../../server/domain/audit.ts'
import { outgoingPayments, queueDueSales } from '../../server/chain/payment-rows.ts'
import { refundComment, saleComment } from '../../server/main.ts'
import { localTreasuryAddress } from '../../stand-ins/chain/dev-keys.ts'
import { commentCell, LocalChain, readComment } from '../../stand-ins/chain/local-chain.ts'
import { startTestServer, type TestServer } from '../server/support.ts'
import { serveV4 } from './support.ts'

/**
 * A database restored to a point in time knows nothing of what the treasury paid after it: a sale
 * that had not joined the queue, a sale queued but not yet signed, a refund not yet decided. The
 * chain knows. The watcher, reading the treasury's history again from the restored cursor, finds each
 * of those payments by its comment, address and amount and marks it paid before any payout pass can
 * sign it again: each is paid once on the chain, however many passes run after the restore.
 */
let dir: string
let chain: LocalChain
let v4: Awaited<ReturnType<typeof serveV4>>
let first: TestServer | null = null
let restored: TestServer | null = null

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'axiom-restore-'))
  chain = await LocalChain.create({ devWallets: 3 })
  v4 = await serveV4(chain)
})
afterAll(async () => {
  await first?.close()
  await restored?.close()
  await v4?.close()
  rmSync(dir, { recursive: true, force: true })
})

const start = async (dbPath: string, now: number) => {
  const ts = await startTestServer({ treasuryAddress: localTreasuryAddress(), dbPath })
  ts.clock.now = now
  await ts.server.startChain({
    endpoint: v4.url,
    treasury: { version: 'v4r2', keyPair: chain.treasury.keyPair, wallet: chain.treasury.wallet },
    fromStart: true,
    pollMs: 0,
    payoutMs: 0,
  })
  return ts
}
const ok = (res: { status: number; body: unknown }) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body as any
}

/** What left the treasury with `comment`, as the chain has it (values). */
const paidOnChain = (comment: string): bigint[] =>
  chain
    .transactionsOf(chain.treasury.address)
    .flatMap(({ tx }) => [...tx.outMessages.values()])
    .filter((m) => m.info.type === 'internal' && readComment(m.body) === comment)
    .map((m) => (m.info.type === 'internal' ? m.info.value.coins : 0n))

describe('a restore to a point in time pays nothing twice', () => {
  it('a sale not yet queued, a sale queued and a refund decided after the point are each paid once', async () => {
    const db = join(dir, 'live.db')
    const backup = join(dir, 'restored.db')
    const now = Math.floor(Date.now() / 1000)
    first = await start(db, now)
    const user = await first.login(9701)
    await first.server.admin.credit(9701, '100')
    const bond = ok(await user.call('POST', '/mint/create', { body: { amount: 12, days: 30 } }))
    await first.server.chain()!.settle()

    // Sale B joins the queue (not yet signed); sale A is made after, still pending.
    const saleB = ok(await user.call('POST', '/withdraw/create', { body: { token_amount: '30', address: chain.devWallet(1).friendly } }))
    expect(await queueDueSales(first.server.ctx)).toBe(1)
    const saleA = ok(await user.call('POST', '/withdraw/create', { body: { token_amount: '20', address: chain.devWallet(2).friendly } }))

    // The point the database is restored to.
    expect(await runAdminCommand(db, ['backup', backup])).toMatch(/backup/i)

    // After it: both sales are paid, and an underpaid bond's payment is refunded.
    await chain.transfer(chain.devWallet(1), [{ to: chain.treasury.address, value: 100_000_000n, body: commentCell(bond.payment.comment), bounce: true }])
    for (let i = 0; i < 3; i++) await first.server.chain()!.settle()
    const refund = refundComment(BigInt(bond.mint.id), 'underpaid')
    for (const c of [saleComment(BigInt(saleA.id)), saleComment(BigInt(saleB.id)), refund]) expect(paidOnChain(c), c).toHaveLength(1)
    await first.close()
    first = null

    // The disk is lost; the backend starts on the copy, against the same chain.
    restored = await start(backup, now + 60)
    for (let i = 0; i < 4; i++) await restored.server.chain()!.settle()
    for (const c of [saleComment(BigInt(saleA.id)), saleComment(BigInt(saleB.id)), refund]) expect(paidOnChain(c), c).toHaveLength(1)

    const rows = await outgoingPayments(restored.server.ctx)
    expect(rows.map((r) => [r.comment, r.state]).sort()).toEqual(
      [
        [saleComment(BigInt(saleA.id)), 'paid'],
        [saleComment(BigInt(saleB.id)), 'paid'],
        [refund, 'paid'],
      ].sort(),
    )
    const history = ok(await (await restored.login(9701)).call('GET', '/withdraw/history')).items as Array<{ id: number; status: string }>
    expect(history.map((h) => h.status)).toEqual(['completed', 'completed'])
    expect(await restored.server.admin.verifyTotals()).toEqual([])
    const found = (await auditEntries(restored.server.ctx, { event: 'payout.paid' })).filter((e) => e.detail.foundOnChain === true)
    expect(found.map((e) => e.detail.comment).sort()).toEqual([saleComment(BigInt(saleA.id)), saleComment(BigInt(saleB.id)), refund].sort())
  }, 90_000)
})
