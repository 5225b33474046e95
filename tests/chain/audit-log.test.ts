import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NO_PAYOUT_LIMITS } from '../../server/config/config.ts'
import { localTreasuryAddress } from '../../stand-ins/chain/dev-keys.ts'
import { commentCell } from '../../stand-ins/chain/local-chain.ts'
import { attachLocalTon, type LocalTon } from '../../stand-ins/local-ton.ts'
import { startTestServer, testDatabase, type Session, type TestServer } from '../server/support.ts'
import { eventually } from './support.ts'

/**
 * The audit log as an operator reads it (`npm run admin -- audit`, a child process on the database
 * file): a bond paid, a payment refunded, sales signed and paid, a sale held and approved by a named
 * operator, the breaker paused, tripped, resumed and cleared, a price recorded, a session ended by its
 * user and one revoked by the operator, each admin command with who ran it.
 */
const TON = 1_000_000_000n
let dir: string
let db: string
let ts: TestServer
let ton: LocalTon

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'axiom-audit-'))
  db = await testDatabase(join(dir, 'axiom.db'))
  ts = await startTestServer({ treasuryAddress: localTreasuryAddress(), dbPath: db, payoutLimits: { ...NO_PAYOUT_LIMITS, maxSaleNano: 5n * TON } })
  ts.clock.now = Math.floor(Date.now() / 1000)
  ton = await attachLocalTon(ts.server, { port: 0, payoutIntervalMs: 0, watchIntervalMs: 0, autoApprove: 'off' })
}, 60_000)
afterAll(async () => {
  await ton?.close()
  await ts?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** `npm run admin -- <args>` as operator `who` runs it. */
const admin = (who: string, ...args: string[]) => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'server/admin.ts', ...args], { env: { ...process.env, AXIOM_DB: db, AXIOM_OPERATOR: who }, encoding: 'utf8' })
  expect(r.status, r.stderr).toBe(0)
  return r.stdout.trim()
}
const ok = (res: { status: number; body: unknown }) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body as any
}
const settle = async () => {
  await ton.service.settle()
  await ton.service.settle()
}

interface Line {
  id: string
  at: string
  actor: string
  event: string
  subject: string | null
  detail: Record<string, any>
}
const auditLines = (...args: string[]): Line[] =>
  admin('carol', 'audit', ...args)
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line)

describe('the audit log', () => {
  it('records the money and security events of a day, with who did each, in order', async () => {
    const user: Session = await ts.login(9601)
    // A bond paid in full: credited.
    const bond = ok(await user.call('POST', '/mint/create', { body: { amount: 10, days: 30 } }))
    await ton.chain.transfer(ton.chain.devWallet(1), [{ to: ton.treasuryAddress, value: BigInt(bond.payment.amount_nano), body: commentCell(bond.payment.comment), bounce: true }])
    // A bond underpaid: refunded, the refund signed and paid.
    const short = ok(await user.call('POST', '/mint/create', { body: { amount: 11, days: 30 } }))
    await ton.chain.transfer(ton.chain.devWallet(1), [{ to: ton.treasuryAddress, value: 100_000_000n, body: commentCell(short.payment.comment), bounce: true }])
    await settle()
    await eventually(async () => (ok(await user.call('GET', '/mint/')).items as Array<{ id: number; status: string }>).find((m) => m.id === bond.mint.id)?.status === 'active')

    // A small sale is paid; a large one is held over the 5 TON per-sale limit, and approved by alice.
    await ts.server.admin.credit(9601, '400')
    const small = ok(await user.call('POST', '/withdraw/create', { body: { token_amount: '10', address: ton.chain.devWallet(2).friendly } }))
    const large = ok(await user.call('POST', '/withdraw/create', { body: { token_amount: '390', address: ton.chain.devWallet(2).friendly } }))
    await settle()
    expect(admin('alice', 'payout', 'approve', String(large.id))).toMatch(/approved/)
    // bob pauses the payouts: the pass finds the breaker's cause; he resumes, the next pass clears it.
    admin('bob', 'payouts', 'pause')
    await ton.service.payouts.pass()
    admin('bob', 'payouts', 'resume')
    await settle()
    admin('alice', 'price', 'set', '0.03')

    // The user ends their own session; the operator revokes the rest.
    const other = await ts.login(9601)
    ok(await other.call('POST', '/auth/logout', { body: { refresh_token: other.refresh } }))
    admin('alice', 'revoke', '9601')

    const lines = auditLines()
    const events = lines.map((l) => `${l.event} ${l.actor}`)
    const expectInOrder = (...wanted: string[]) => {
      let at = -1
      for (const w of wanted) {
        const i = events.findIndex((e, n) => n > at && e === w)
        expect(i, `${w} after ${wanted[wanted.indexOf(w) - 1] ?? 'the start'} in\n${events.join('\n')}`).toBeGreaterThan(at)
        at = i
      }
    }
    expectInOrder(
      'payment.activated system',
      'payment.refunded system',
      'payout.signed system',
      'payout.paid system',
      'sale.held system',
      'admin.command operator:alice',
      'sale.approved operator:alice',
      'admin.command operator:bob',
      'breaker.paused operator:bob',
      'breaker.tripped system',
      'admin.command operator:bob',
      'breaker.resumed operator:bob',
      'breaker.cleared system',
      'admin.command operator:alice',
      'price.set operator:alice',
      'session.ended user:1',
      'admin.command operator:alice',
      'session.revoked operator:alice',
    )
    // What each entry says: the payment's hash and bond, the sale's amount and reason, the command's words.
    const activated = lines.find((l) => l.event === 'payment.activated')!
    expect(activated.detail.mintId).toBe(String(bond.mint.id))
    expect(activated.subject).toMatch(/^[0-9a-f]{64}$/)
    expect(lines.find((l) => l.event === 'sale.held')).toMatchObject({ subject: String(large.id), detail: { reason: expect.stringMatching(/per-sale limit of 5 GRAM/) } })
    expect(lines.find((l) => l.event === 'admin.command' && l.actor === 'operator:alice')!.detail.args).toEqual(['payout', 'approve', String(large.id)])
    const paidSales = lines.filter((l) => l.event === 'payout.paid' && l.detail.kind === 'sale').map((l) => l.detail.withdrawalId)
    expect(paidSales).toEqual(expect.arrayContaining([String(small.id), String(large.id)]))
    expect(lines.find((l) => l.event === 'price.set')!.detail).toMatchObject({ priceNano: '30000000', forced: false })

    // Read by event and from a point on, as an operator follows it.
    const sales = auditLines('--event', 'sale.')
    expect(sales.map((l) => l.event)).toEqual(['sale.held', 'sale.approved'])
    const after = auditLines('--after', sales[0]!.id, '--limit', '2')
    expect(after.map((l) => Number(l.id))).toEqual([Number(sales[0]!.id) + 1, Number(sales[0]!.id) + 2])
  }, 90_000)
})
