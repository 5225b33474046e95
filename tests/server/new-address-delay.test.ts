import { Address } from '@ton/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { outgoingPayments, queueDueSales } from '../../server/chain/payment-rows.ts'
import { NO_PAYOUT_LIMITS } from '../../server/config/config.ts'
import { holdOverLimits } from '../../server/domain/sale-payouts.ts'
import { big, getRow, str } from '../../server/db/sql.ts'
import { devWalletKey } from '../../stand-ins/chain/dev-keys.ts'
import { proveWallet } from '../support/bind-wallet.ts'
import { SOME_ADDRESS, serversClosedAfterAll, startTestServer, type Session, type TestServer } from './support.ts'

/**
 * The cooling period (AXIOM_NEW_ADDRESS_DELAY, config newAddressDelayS): a sale to an address its user
 * has not proven with tonProof stays out of the payout queue (queueDueSales, the payouts' first step)
 * until its release time on the server's clock, and GET /withdraw/history says when; a sale to the
 * wallet the user proved goes at once, whichever form of its address is typed. Proofs are made as
 * TON Connect makes them (tests/support/bind-wallet.ts).
 */
const DELAY = 3_600
const A = devWalletKey(40)
const B = devWalletKey(41)
const C = devWalletKey(42)

let t: TestServer
const started = serversClosedAfterAll()
beforeAll(async () => {
  t = await started({ newAddressDelayS: DELAY })
})

let nextUser = 9_100
const seller = async (server: TestServer = t): Promise<Session> => {
  const id = nextUser++
  const s = await server.login(id)
  await server.server.admin.credit(id, '1000')
  return s
}

/** A session of the same user signed in now (the clock moves past access tokens' 15 minutes). */
const again = (s: Session, server: TestServer = t) => server.login(s.telegramId)

const sell = async (s: Session, address: string, tokens = '10', server: TestServer = t) => {
  const res = await (await again(s, server)).call('POST', '/withdraw/create', { body: { from_ref_balance: false, token_amount: tokens, address } })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body as { id: number; status: string; amount_ton: string; address: string; release_at?: number }
}

const statusOf = async (server: TestServer, id: number) => str((await getRow(server.server.ctx.db, 'SELECT status FROM withdrawals WHERE id = ?', id))!, 'status')
const queuedFor = async (server: TestServer, id: number) => (await outgoingPayments(server.server.ctx)).filter((r) => r.withdrawalId === BigInt(id))
const historyRow = async (s: Session, id: number) => ((await (await again(s)).call('GET', '/withdraw/history', { query: { limit: 100 } })).body.items as Array<Record<string, unknown>>).find((w) => w.id === id)!

describe('a sale to an address the user has not proven waits the cooling period', () => {
  it('is not queued for payout before its release time, and is queued once at it', async () => {
    const s = await seller()
    const sale = await sell(s, SOME_ADDRESS)
    const releaseAt = t.clock.now + DELAY
    expect(sale).toMatchObject({ status: 'pending', release_at: releaseAt })

    await queueDueSales(t.server.ctx)
    expect(await queuedFor(t, sale.id)).toEqual([])
    expect(await statusOf(t, sale.id)).toBe('pending')
    // The app is told when it goes, on the raw wire.
    const raw = await fetch(`${t.url}/api/withdraw/history`, { headers: { authorization: `Bearer ${s.token}` } })
    const item = (JSON.parse(await raw.text()) as { items: Array<Record<string, unknown>> }).items.find((w) => w.id === sale.id)!
    expect(item).toMatchObject({ status: 'pending', release_at: releaseAt })

    t.clock.advance(DELAY - 1)
    await queueDueSales(t.server.ctx)
    expect(await queuedFor(t, sale.id)).toEqual([])

    t.clock.advance(1)
    await queueDueSales(t.server.ctx)
    await queueDueSales(t.server.ctx)
    const queued = await queuedFor(t, sale.id)
    expect(queued).toHaveLength(1)
    expect(queued[0]).toMatchObject({ kind: 'sale', state: 'queued', to: sale.address })
    expect(queued[0]!.amountNano).toBe(big((await getRow(t.server.ctx.db, 'SELECT amount_ton FROM withdrawals WHERE id = ?', sale.id))!, 'amount_ton'))
    expect(await statusOf(t, sale.id)).toBe('sending')
    // Queued, it is no longer cooling: the field is gone.
    expect(await historyRow(s, sale.id)).not.toHaveProperty('release_at')
  })

  it("a sale to the user's proven wallet is queued at once, in its friendly or raw form; another address of theirs still waits", async () => {
    const s = await seller()
    await proveWallet(s, A, t.clock.now)
    t.clock.advance(DELAY)
    const friendly = await sell(s, A.friendly)
    const raw = await sell(s, A.address)
    const bounceable = await sell(s, Address.parse(A.address).toString({ bounceable: true }))
    const other = await sell(s, B.friendly)
    for (const sale of [friendly, raw, bounceable]) expect(sale).not.toHaveProperty('release_at')
    expect(other.release_at).toBe(t.clock.now + DELAY)

    await queueDueSales(t.server.ctx)
    for (const sale of [friendly, raw, bounceable]) expect(await queuedFor(t, sale.id)).toHaveLength(1)
    expect(await queuedFor(t, other.id)).toEqual([])
  })

  it('a wallet proved just now waits out the rest of the period from its proof (a stolen session could prove its own)', async () => {
    const s = await seller()
    const boundAt = t.clock.now
    await proveWallet(s, C, boundAt)
    t.clock.advance(600)
    const sale = await sell(s, C.friendly)
    expect(sale.release_at).toBe(boundAt + DELAY)
    await queueDueSales(t.server.ctx)
    expect(await queuedFor(t, sale.id)).toEqual([])
    t.clock.advance(DELAY - 600)
    await queueDueSales(t.server.ctx)
    expect(await queuedFor(t, sale.id)).toHaveLength(1)
  })

  it('no payout limit judges a sale while it cools: it is held, if at all, once its wait is over', async () => {
    const s = await seller()
    const sale = await sell(s, SOME_ADDRESS)
    const limits = { ...NO_PAYOUT_LIMITS, maxSaleNano: 1n }
    expect((await holdOverLimits(t.server.ctx, limits)).map((h) => Number(h.id))).not.toContain(sale.id)
    expect(await statusOf(t, sale.id)).toBe('pending')
    t.clock.advance(DELAY)
    expect((await holdOverLimits(t.server.ctx, limits)).map((h) => Number(h.id))).toContain(sale.id)
    expect(await statusOf(t, sale.id)).toBe('held')
  })
})

describe('without a cooling period (npm start, and the default)', () => {
  it('every sale is queued at once and carries no release_at', async () => {
    const plain = await startTestServer()
    try {
      const s = await seller(plain)
      const sale = await sell(s, SOME_ADDRESS, '10', plain)
      expect(sale).not.toHaveProperty('release_at')
      await queueDueSales(plain.server.ctx)
      expect(await queuedFor(plain, sale.id)).toHaveLength(1)
    } finally {
      await plain.close()
    }
  })
})
