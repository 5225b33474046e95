import { toNano } from '@ton/core'
import { afterAll, describe, expect, it } from 'vitest'
import { localTreasuryAddress } from '../../stand-ins/chain/dev-keys.ts'
import { commentCell, LocalChain, readComment } from '../../stand-ins/chain/local-chain.ts'
import { startServer, TREASURY_CURSOR, type ChainService, type RunningServer } from '../../server/main.ts'
import { serveV4 } from '../chain/support.ts'
import { RELAXED_RATE_LIMITS } from '../support/relaxed-limits.ts'
import { call, signInitData, testDatabase } from '../server/support.ts'

/**
 * Two backends on one PostgreSQL, each with a payment watcher over one chain: only the holder of
 * the `chain-watcher` lease handles payments; when it closes in the middle of a stream of payments,
 * the other takes over from the persisted cursor, and every bond is activated once, no payment that
 * should be kept is refunded, and no refund is sent twice.
 */
const RETRY_MS = 100
const servers: RunningServer[] = []
const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const s of servers) await s.close().catch(() => undefined)
  for (const c of closers) await c()
})

/** What one instance's watcher decided, and a pass that also sends its refunds. */
const view = (svc: ChainService) => ({
  get records() {
    return svc.watcher.decided
  },
  idle: () => svc.settle(),
})

const waitFor = async (what: string, ok: () => boolean | Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('one payment watcher across instances', () => {
  it('the holder handles the payments; the other takes over from the cursor when it closes, and nothing is handled twice', async () => {
    const db = await testDatabase()
    const chain = await LocalChain.create({ devWallets: 3 })
    const v4 = await serveV4(chain)
    closers.push(v4.close)
    const start = async () => {
      const s = await startServer({
        port: 0,
        dbPath: db,
        leaseRetryMs: RETRY_MS,
        welcomeBalanceNano: 0n,
        rateLimits: RELAXED_RATE_LIMITS,
        treasuryAddress: localTreasuryAddress(),
        // Eight bonds are created before any is paid: the cap on a user's pending bonds (5) is lifted.
        maxPendingMints: 1_000,
      })
      servers.push(s)
      const svc = await s.startChain({
        endpoint: v4.url,
        treasury: { version: 'v4r2', keyPair: chain.treasury.keyPair, wallet: chain.treasury.wallet },
        fromStart: true,
        pollMs: 50,
        payoutMs: 100,
      })
      return { s, w: view(svc) }
    }
    const { s: a, w: wa } = await start()
    const { s: b, w: wb } = await start()

    const register = async (id: number, refCode?: string) => {
      const r = await call(b.url, 'POST', '/auth/register', {
        body: { init_data: signInitData({ id }, Math.floor(Date.now() / 1000)), ...(refCode ? { ref_code: refCode } : {}) },
      })
      expect(r.status).toBe(200)
      return r.body.token as string
    }
    const referrer = await register(9901)
    const buyer = await register(9902, (await call(b.url, 'GET', '/user/me', { token: referrer })).body.ref_code)

    // Bonds created through either instance; the comments are written here, by hand.
    const bonds: Array<{ id: bigint; nano: bigint }> = []
    for (let i = 0; i < 8; i++) {
      const r = await call(i % 2 ? a.url : b.url, 'POST', '/mint/create', { token: buyer, body: { amount: 10 + i, days: 30 } })
      expect(r.status).toBe(200)
      bonds.push({ id: BigInt(r.body.mint.id), nano: BigInt(r.body.payment.amount_nano) })
    }
    const pay = (wallet: number, value: bigint, comment: string) =>
      chain.transfer(chain.devWallet(wallet), [{ to: chain.treasury.address, value, body: commentCell(comment), bounce: true }])
    const payBond = (i: number, wallet = 1) => pay(wallet, bonds[i]!.nano, `axiom:mint:${bonds[i]!.id}`)
    const mints = async () =>
      (await call(b.url, 'GET', '/mint/', { token: buyer })).body.items as Array<{ id: number | string; status: string; activated_at: number | null }>
    const statusOf = async (i: number) => (await mints()).find((m) => String(m.id) === String(bonds[i]!.id))?.status

    // A holds the lease: it alone handles the first payments.
    await payBond(0)
    await payBond(1)
    await pay(2, toNano('0.3'), 'top-up')
    await wa.idle()
    await wb.idle()
    expect(wa.records.map((r) => r.outcome)).toEqual(['activated', 'activated', 'ignored'])
    expect(wb.records).toEqual([])
    expect([await statusOf(0), await statusOf(1)]).toEqual(['active', 'active'])

    // A stream of payments; A closes in the middle of it.
    let closing: Promise<void> | null = null
    for (let i = 2; i < 8; i++) {
      await payBond(i)
      if (i === 4) {
        await pay(2, bonds[0]!.nano, `axiom:mint:${bonds[0]!.id}`) // a second payment of bond 0: refunded once
        closing = a.close()
      }
    }
    await pay(2, toNano('0.2'), 'another top-up')
    await closing

    await waitFor('every bond is active', async () => (await mints()).every((m) => m.status === 'active'))
    await waitFor('B has handled the last payment', async () => {
      await wb.idle()
      return wb.records.at(-1)?.comment === 'another top-up'
    })
    await wb.idle()
    expect(wb.records.length).toBeGreaterThan(0)

    // Each payment was handled by one watcher, once.
    const handled = [...wa.records, ...wb.records].map((r) => r.txHash)
    expect(new Set(handled).size).toBe(handled.length)
    const payments = chain
      .transactionsOf(chain.treasury.wallet.address)
      .filter((t) => t.tx.inMessage?.info.type === 'internal')
      .map((t) => t.tx.hash().toString('hex'))
    expect(payments).toHaveLength(11)
    expect(new Set(handled)).toEqual(new Set(payments))

    // What a user sees: every bond active, each bought once (one referral bonus each)…
    const list = await mints()
    expect(list.map((m) => m.status)).toEqual(Array(8).fill('active'))
    const history = (await call(b.url, 'GET', '/operations/history', { token: referrer, query: { page: 1, size: 100 } })).body.items as Array<{
      description: string
    }>
    for (const { id } of bonds) expect(history.filter((o) => o.description === `Referral bonus for bond #${id}`)).toHaveLength(1)
    // …and on the chain: one refund, of the second payment of bond 0; none to the payer of the bonds, and the top-ups kept.
    const refundsTo = (wallet: number) =>
      chain
        .transactionsOf(chain.devWallet(wallet).address)
        .map((t) => t.tx.inMessage)
        .filter((m) => m?.info.type === 'internal' && m.info.src.equals(chain.treasury.wallet.address))
        .map((m) => readComment(m!.body))
    expect(refundsTo(2)).toEqual([`axiom:refund:${bonds[0]!.id}:duplicate`])
    expect(refundsTo(1)).toEqual([])

    // The cursor B keeps is the treasury's last transaction (the refund it or A sent is handled too).
    const last = chain.transactionsOf(chain.treasury.wallet.address).at(-1)!
    expect(await b.readChainCursor(TREASURY_CURSOR)).toEqual({ lt: last.tx.lt, txHash: last.tx.hash().toString('hex') })
  })
})
