import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { toNano } from '@ton/core'
import { keyPairFromSeed } from '@ton/crypto'
import { TonClient4, WalletContractV5R1 } from '@ton/ton'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SWEEP_FEE_NANO, SWEEP_MARGIN_NANO, sweepComment, type ColdSweep } from '../../server/chain/cold-sweep.ts'
import { outgoingPayments, queueSweep, type OutgoingPayment } from '../../server/chain/payment-rows.ts'
import { hourOutflow, setPayoutPause } from '../../server/chain/payout-breaker.ts'
import { createPayoutSender, type PayoutSender } from '../../server/chain/payouts.ts'
import { NO_PAYOUT_LIMITS, type PayoutLimits } from '../../server/config/config.ts'
import { big, getRow } from '../../server/db/sql.ts'
import { runAdminCommand, type Lease } from '../../server/main.ts'
import { readComment, type LocalChain } from '../../stand-ins/chain/local-chain.ts'
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy.ts'
import { startTestServer, type TestServer } from '../server/support.ts'
import { startW5TreasuryStack, type serveV4 } from './support.ts'

/**
 * The hot float and the cold sweep (server/chain/cold-sweep.ts, payouts.ts) on the local sandbox
 * chain, through the v4 API and TonClient4, from a W5 treasury as production's: what the treasury
 * holds beyond its float plus the margin goes to a cold wallet whose key the backend never sees, as
 * an outgoing payment of kind `sweep`, once; at or below that nothing moves.
 */
const SEED = 'axiom-test:cold-sweep'
const TON = 1_000_000_000n
let ts: TestServer
let chain: LocalChain
let v4: Awaited<ReturnType<typeof serveV4>>
let w5: WalletContractV5R1
let proxy: FaultProxy
let client: TonClient4
let proxied: TonClient4
/** The cold wallet: an address of a key the backend never holds (not even deployed). */
const cold = WalletContractV5R1.create({ publicKey: keyPairFromSeed(createHash('sha256').update('axiom-test:cold-wallet').digest()).publicKey, walletId: { networkGlobalId: -239 } })
  .address
const keyPair = keyPairFromSeed(createHash('sha256').update(SEED).digest())

beforeAll(async () => {
  ;({ ts, chain, v4, w5 } = await startW5TreasuryStack(SEED))
  client = new TonClient4({ endpoint: v4.url, timeout: 5000 })
  proxy = await startFaultProxy(v4.url)
  proxied = new TonClient4({ endpoint: proxy.url, timeout: 5000 })
})
afterAll(async () => {
  await setPayoutPause(ctx(), false).catch(() => undefined)
  await ts?.close()
  await proxy?.close()
  await v4?.close()
})

const ctx = () => ts.server.ctx
const always: Lease = { held: () => true, onAcquired: () => undefined }

/** A payout sender of the treasury's, sweeping above `floatNano` (and with `limits`); through the fault proxy when asked. */
const sender = (floatNano: bigint, o: { limits?: Partial<PayoutLimits>; via?: TonClient4; validForS?: number } = {}): PayoutSender =>
  createPayoutSender(ctx(), {
    client: o.via ?? client,
    treasury: { version: 'v5r1', keyPair, wallet: w5 },
    lease: always,
    maxFailures: 5,
    limits: { ...NO_PAYOUT_LIMITS, ...o.limits },
    sweep: { coldAddress: cold.toRawString(), floatNano } satisfies ColdSweep,
    ...(o.validForS !== undefined ? { validForS: o.validForS } : {}),
    log: () => undefined,
  })

const watcher = () => ts.server.chain()!.watcher
const treasury = () => chain.balance(w5.address)
const coldBalance = () => chain.balance(cold)
const sweeps = async (): Promise<OutgoingPayment[]> => (await outgoingPayments(ctx())).filter((r) => r.kind === 'sweep')
/** What the chain carried to the cold wallet: the chain's own record, not the rows. */
const arrivedCold = (): bigint[] =>
  chain
    .transactionsOf(cold)
    .map((t) => t.tx.inMessage)
    .filter((m) => m?.info.type === 'internal')
    .map((m) => (m!.info.type === 'internal' ? m!.info.value.coins : 0n))

describe('the cold sweep', () => {
  it('moves nothing while the treasury holds no more than its float plus the margin', async () => {
    // The first pass deploys the funded W5 treasury (a transfer of nothing); nothing is swept before it is active.
    await sender(0n).pass()
    await watcher().pass()
    expect((await chain.blockchain.getContract(w5.address)).accountState?.type).toBe('active')
    const held = await treasury()
    for (const float of [held, held - SWEEP_MARGIN_NANO + 1n, held + TON]) {
      const p = sender(float)
      for (let i = 0; i < 3; i++) {
        expect(await p.pass()).toEqual([])
        await watcher().pass()
      }
    }
    expect(await sweeps()).toEqual([])
    expect(arrivedCold()).toEqual([])
    expect(await treasury()).toBe(held)
  })

  it('sends the excess over the float to the cold wallet once: a second pass while it is in flight sends nothing more, and the treasury keeps its float', async () => {
    await chain.faucet(w5.address, toNano('50'))
    await watcher().pass()
    const held = await treasury()
    const float = held - toNano('40')
    const p = sender(float)
    const sent = await p.pass()
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatchObject({ kind: 'sweep', to: cold.toRawString(), amountNano: toNano('40') - SWEEP_FEE_NANO, comment: sweepComment(1) })
    // The watcher has not seen it land yet: the same pass again, and another sender's, add nothing.
    for (const again of [p, sender(float), sender(0n)]) {
      const more = await again.pass()
      expect(more.every((r) => r.id === sent[0]!.id)).toBe(true)
    }
    expect(await sweeps()).toMatchObject([{ id: sent[0]!.id, state: 'sending' }])
    expect(arrivedCold()).toEqual([toNano('40') - SWEEP_FEE_NANO])
    await watcher().pass()
    expect(await sweeps()).toMatchObject([{ id: sent[0]!.id, state: 'paid' }])
    // The cold wallet rose by the excess less the fee kept for it; the treasury kept at least its float.
    expect(await coldBalance()).toBe(toNano('40') - SWEEP_FEE_NANO)
    const after = await treasury()
    expect(after).toBeGreaterThanOrEqual(float)
    expect(after).toBeLessThan(float + SWEEP_FEE_NANO)
    // At the float now: nothing more.
    expect(await p.pass()).toEqual([])
    await watcher().pass()
    expect(await sweeps()).toHaveLength(1)
    expect(readComment(chain.transactionsOf(cold)[0]!.tx.inMessage!.body)).toBe(sweepComment(1))
  })

  it('waits while the watcher has not read what the treasury did last (its balance may show what the rows do not)', async () => {
    const float = await treasury()
    await chain.faucet(w5.address, toNano('10'))
    const p = sender(float)
    expect(await p.pass()).toEqual([])
    expect(await p.pass()).toEqual([])
    expect(await sweeps()).toHaveLength(1)
    await watcher().pass()
    // What the deposit brought, less what receiving it cost the treasury.
    const excess = (await treasury()) - float
    expect(excess).toBeGreaterThan(toNano('9.99'))
    const sent = await p.pass()
    expect(sent).toMatchObject([{ kind: 'sweep', amountNano: excess - SWEEP_FEE_NANO }])
    await watcher().pass()
    expect((await sweeps()).map((r) => r.state)).toEqual(['paid', 'paid'])
  })

  it('waits while the breaker has a cause (the operator paused payments), and goes when it clears', async () => {
    const float = await treasury()
    await chain.faucet(w5.address, toNano('5'))
    await watcher().pass()
    const excess = (await treasury()) - float
    await setPayoutPause(ctx(), true)
    const p = sender(float)
    for (let i = 0; i < 3; i++) expect(await p.pass()).toEqual([])
    expect(await sweeps()).toHaveLength(2)
    await setPayoutPause(ctx(), false)
    expect(await p.pass()).toMatchObject([{ kind: 'sweep', amountNano: excess - SWEEP_FEE_NANO }])
    await watcher().pass()
    expect((await sweeps()).map((r) => r.state)).toEqual(['paid', 'paid', 'paid'])
  })

  it("lets the sales go first, and is no payout: a sweep does not count in the hour's outflow limit", async () => {
    const user = await ts.login(9301)
    await ts.server.admin.credit(9301, '100')
    const sale = await user.call('POST', '/withdraw/create', { body: { token_amount: '2', address: chain.devWallet(1).friendly } })
    expect(sale.status).toBe(200)
    const saleTon = big((await getRow(ctx().db, 'SELECT amount_ton FROM withdrawals WHERE id = ?', BigInt(sale.body.id)))!, 'amount_ton')
    const float = await treasury()
    await chain.faucet(w5.address, toNano('20'))
    await watcher().pass()
    // 60 TON have gone cold within the hour; the hour's limit is a little over the sale.
    const p = sender(float, { limits: { maxHourNano: saleTon + TON / 10n } })
    expect(await p.pass()).toMatchObject([{ kind: 'sale', amountNano: saleTon }])
    await watcher().pass()
    expect(await hourOutflow(ctx())).toBe(saleTon)
    const sent = await p.pass()
    expect(sent).toMatchObject([{ kind: 'sweep' }])
    // The sale's TON stayed in the treasury: the sweep took the excess over the float of what was left.
    expect(sent[0]!.amountNano).toBeLessThan(toNano('20') - saleTon)
    await watcher().pass()
    expect(await treasury()).toBeGreaterThanOrEqual(float)
    expect(await hourOutflow(ctx())).toBe(saleTon)
  })

  it('a sweep whose message never landed is cancelled, never signed again with its old amount: the next is reckoned anew', async () => {
    const float = await treasury()
    await chain.faucet(w5.address, toNano('3'))
    await watcher().pass()
    const first = (await treasury()) - float - SWEEP_FEE_NANO
    proxy.fail('/send', { kind: 'drop' })
    const p = sender(float, { via: proxied, validForS: 30 })
    const lost = await p.pass()
    expect(lost).toMatchObject([{ kind: 'sweep', amountNano: first }])
    expect(proxy.met('/send')).toBeGreaterThan(0)
    // More arrives, and the lost message's valid_until passes by the chain's clock.
    await chain.faucet(w5.address, toNano('2'))
    await watcher().pass()
    const second = (await treasury()) - float - SWEEP_FEE_NANO
    expect(second - first).toBeGreaterThan(toNano('1.99'))
    chain.blockchain.now = (await sweeps()).find((r) => r.id === lost[0]!.id)!.validUntil! + 1
    proxy.clear()
    const next = await p.pass()
    expect(next).toMatchObject([{ kind: 'sweep', amountNano: second }])
    expect(next[0]!.id).not.toBe(lost[0]!.id)
    await watcher().pass()
    const rows = await sweeps()
    expect(rows.find((r) => r.id === lost[0]!.id)).toMatchObject({ state: 'cancelled', lastError: expect.stringMatching(/did not land/) })
    expect(rows.find((r) => r.id === next[0]!.id)).toMatchObject({ state: 'paid' })
    // The chain carried the new sweep only.
    expect(arrivedCold().slice(-1)).toEqual([second])
    expect(arrivedCold()).not.toContain(first)
  })
})

describe('npm run admin -- payouts all', () => {
  it('lists a sweep like the other outgoing payments, and payouts sums them up', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'axiom-sweep-admin-'))
    const file = join(dir, 'axiom.db')
    const t = await startTestServer({ dbPath: file })
    try {
      const row = await queueSweep(t.server.ctx, cold.toRawString(), toNano('12.5'), sweepComment)
      expect(row).not.toBeNull()
      // One at a time: a second is not queued while the first is queued or in flight.
      expect(await queueSweep(t.server.ctx, cold.toRawString(), toNano('1'), sweepComment)).toBeNull()
      const listed = JSON.parse(await runAdminCommand(file, ['payouts', 'all'])) as Array<Record<string, unknown>>
      expect(listed).toMatchObject([{ kind: 'sweep', to: cold.toRawString(), amountNano: '12500000000', comment: 'axiom:sweep:1', state: 'queued' }])
      expect(JSON.parse(await runAdminCommand(file, ['payouts', 'queued']))).toHaveLength(1)
      // The breaker's summary names the sweeps too.
      expect(await runAdminCommand(file, ['payouts'])).toMatch(new RegExp(`^cold sweeps: 1 queued \\(12\\.5 GRAM\\); the last #${row!.id} queued, 12\\.5 GRAM to ${cold.toRawString()} at `, 'm'))
    } finally {
      await t.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
