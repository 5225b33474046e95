import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Address, Cell, loadTransaction, type Transaction } from '@ton/core'
import { TonClient4 } from '@ton/ton'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { outgoingPayments, paymentRecords } from '../../server/chain/payment-rows.ts'
import { hourOutflow, readBreaker } from '../../server/chain/payout-breaker.ts'
import { heldSales, rejectHeldSale } from '../../server/domain/sale-payouts.ts'
import { NO_PAYOUT_LIMITS, type PayoutLimits } from '../../server/config/config.ts'
import { readChainSeen } from '../../server/domain/chain-cursor.ts'
import { saleComment, TREASURY_CURSOR } from '../../server/main.ts'
import { localTreasuryAddress } from '../../stand-ins/chain/dev-keys.ts'
import { commentCell, LocalChain, readComment } from '../../stand-ins/chain/local-chain.ts'
import { proveWallet } from '../support/bind-wallet.ts'
import { forged, relinked, startLyingV4, type LyingV4 } from '../support/lying-v4.ts'
import { signInitData, startTestServer, testDatabase, type Session, type TestServer } from '../server/support.ts'
import { serveV4 } from '../chain/support.ts'

/**
 * The money path as attackers arrive at it, one test per attack, against one deployment run the way
 * production runs it: the recorded price, payout limits and the breaker on, a treasury of 150 TON on
 * the local chain, the watcher reading a primary v4 endpoint that can be made to lie and confirming
 * with a second, honest one. Every test ends where an operator would look: what left the treasury is
 * within the limits (per sale, per user per day, per hour, never below the reserve) and
 * `admin verify-totals` finds no drift.
 */

const TON = 1_000_000_000n
const LIMITS: PayoutLimits = {
  ...NO_PAYOUT_LIMITS,
  maxSaleNano: 30n * TON,
  maxUserDayNano: 50n * TON,
  maxHourNano: 100n * TON,
  maxLagS: 60,
  treasuryReserveNano: 5n * TON,
}
const TREASURY_START = 150n * TON

let dir: string
let lie: ((real: Transaction[]) => Transaction[]) | null = null

/** One deployment: its database, backend, chain, honest v4 API and the liar in front of it (the primary). */
interface Deployment {
  readonly db: string
  readonly ts: TestServer
  readonly chain: LocalChain
  readonly honest: Awaited<ReturnType<typeof serveV4>>
  readonly liar: LyingV4
  readonly client: TonClient4
  close(): Promise<void>
}
let d: Deployment

/** `npm run admin -- <args>` as the operator types it, on the deployment's database. */
const admin = (...args: string[]) => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'server/admin.ts', ...args], { env: { ...process.env, AXIOM_DB: d.db }, encoding: 'utf8' })
  return { status: r.status, out: r.stdout.trim(), err: r.stderr.trim() }
}

const realHistory = () => d.chain.transactionsOf(d.chain.treasury.address).map((t) => loadTransaction(Cell.fromBoc(t.tx.raw.toBoc())[0]!.beginParse()))

/**
 * A deployment as production runs one: the recorded price (0.025), the limits, a treasury of 150 TON,
 * the watcher on the liar confirming with the honest API, started as a new deployment on a real network.
 */
const deploy = async (name: string, options: Parameters<typeof startTestServer>[0] = {}): Promise<Deployment> => {
  const db = await testDatabase(join(dir, `${name}.db`))
  const priced = spawnSync(process.execPath, ['--import', 'tsx', 'server/admin.ts', 'price', 'set', '0.025'], { env: { ...process.env, AXIOM_DB: db }, encoding: 'utf8' })
  expect(priced.status, priced.stderr).toBe(0)
  const ts = await startTestServer({ treasuryAddress: localTreasuryAddress(), dbPath: db, priceSource: 'recorded', priceTickMs: 60_000, payoutLimits: LIMITS, ...options })
  ts.clock.now = Math.floor(Date.now() / 1000)
  const chain = await LocalChain.create({ devWallets: 6, treasuryBalance: TREASURY_START })
  const honest = await serveV4(chain)
  const liar = await startLyingV4(honest.url, chain.treasury.wallet.address, () => (lie ? lie(realHistory()) : null))
  await ts.server.startChain({
    endpoint: liar.url,
    confirmEndpoint: honest.url,
    treasury: { version: 'v4r2', keyPair: chain.treasury.keyPair, wallet: chain.treasury.wallet },
    fromStart: false,
    pollMs: 0,
    payoutMs: 0,
  })
  // A new deployment's first pass: the watcher starts after the treasury's newest transaction.
  await ts.server.chain()!.settle()
  return {
    db,
    ts,
    chain,
    honest,
    liar,
    client: new TonClient4({ endpoint: honest.url, timeout: 5000 }),
    close: async () => {
      await ts.close()
      await liar.close()
      await honest.close()
    },
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'axiom-red-team-'))
  d = await deploy('main')
}, 120_000)
afterAll(async () => {
  await d?.close()
  rmSync(dir, { recursive: true, force: true })
})

const ctx = () => d.ts.server.ctx
const svc = () => d.ts.server.chain()!
const ok = (res: { status: number; body: unknown }) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body as any
}
/** A few rounds of what the worker does: the watcher, the payouts, the watcher again. */
const settle = async (rounds = 3) => {
  for (let i = 0; i < rounds; i++) await svc().settle()
}

const treasuryBalance = async () => {
  const last = await d.client.getLastBlock()
  return BigInt((await d.client.getAccountLite(last.last.seqno, d.chain.treasury.wallet.address)).account.balance.coins)
}

/** What the chain carried out of the treasury with a sale's comment, by sale: the chain's record, not the rows. */
const salesOnChain = (): Map<string, bigint> => {
  const paid = new Map<string, bigint>()
  for (const { tx } of d.chain.transactionsOf(d.chain.treasury.address)) {
    for (const m of tx.outMessages.values()) {
      const c = m.info.type === 'internal' ? readComment(m.body) : null
      if (c?.startsWith('axiom:sale:') && m.info.type === 'internal') paid.set(c, (paid.get(c) ?? 0n) + m.info.value.coins)
    }
  }
  return paid
}

/**
 * Where every attack ends: nothing paid twice, no sale over the per-sale limit went out, no user's
 * sales of a day over theirs, the last hour's outflow within its limit, the treasury at or above its
 * reserve, and the platform's totals agree with the rows.
 */
const expectGuarded = async () => {
  const onChain = salesOnChain()
  const rows = await outgoingPayments(ctx())
  const byUser = new Map<string, bigint>()
  for (const r of rows.filter((r) => r.kind === 'sale' && (r.state === 'paid' || r.state === 'sending'))) {
    expect(r.amountNano).toBeLessThanOrEqual(LIMITS.maxSaleNano!)
    const owner = String((await ctx().engine.all('SELECT user_id FROM withdrawals WHERE id = ?', r.withdrawalId))[0]!.user_id)
    byUser.set(owner, (byUser.get(owner) ?? 0n) + r.amountNano)
  }
  for (const total of byUser.values()) expect(total).toBeLessThanOrEqual(LIMITS.maxUserDayNano!)
  // What the chain carried equals what the rows call paid: nothing twice, nothing unrecorded.
  for (const [comment, value] of onChain) {
    const row = rows.find((r) => r.comment === comment)
    expect(row?.state, comment).toBe('paid')
    expect(value).toBe(row!.amountNano)
  }
  expect(await hourOutflow(ctx())).toBeLessThanOrEqual(LIMITS.maxHourNano!)
  expect(await treasuryBalance()).toBeGreaterThanOrEqual(LIMITS.treasuryReserveNano!)
  expect(admin('verify-totals').out).toBe('platform totals agree with the rows')
}

let nextUser = 60_000
const newUser = async (refCode?: string) => {
  const telegramId = nextUser++
  return { telegramId, session: await d.ts.login(telegramId, refCode) }
}
const sell = (s: Session, tokens: string, to: string, fromRef = false) =>
  s.call('POST', '/withdraw/create', { body: { token_amount: tokens, address: to, from_ref_balance: fromRef } })
const bondStatus = async (s: Session, id: number) => (ok(await s.call('GET', '/mint/')).items as Array<{ id: number; status: string }>).find((m) => m.id === id)?.status

describe('red team: the money path under attack', () => {
  it('a lying TON endpoint invents a payment for the attacker’s bond: held, never credited, nothing to sell', async () => {
    const { session: attacker } = await newUser()
    const bond = ok(await attacker.call('POST', '/mint/create', { body: { amount: 1000, days: 30 } }))
    // One honest payment first, so the liar has a real transaction to dress up.
    const { session: honestUser } = await newUser()
    const real = ok(await honestUser.call('POST', '/mint/create', { body: { amount: 10, days: 30 } }))
    await d.chain.transfer(d.chain.devWallet(1), [{ to: d.chain.treasury.address, value: BigInt(real.payment.amount_nano), body: commentCell(real.payment.comment), bounce: true }])
    await settle(1)
    expect(await bondStatus(honestUser, real.mint.id)).toBe('active')

    const tpl = realHistory().filter((t) => t.inMessage?.info.type === 'internal').at(-1)!
    const m = tpl.inMessage!
    const info = m.info
    if (info.type !== 'internal') throw new Error('not internal')
    // Dated two minutes back: the confirming endpoint's chain is well past it (more than its 30 s of grace).
    lie = (txs) =>
      relinked([
        ...txs,
        forged(tpl, {
          lt: txs.at(-1)!.lt + 1000n,
          now: tpl.now - 120,
          inMessage: { ...m, info: { ...info, src: Address.parse(d.chain.devWallet(2).address), value: { coins: BigInt(bond.payment.amount_nano) } }, body: commentCell(bond.payment.comment) },
        }),
      ])
    try {
      await settle(1)
    } finally {
      lie = null
    }
    expect(await bondStatus(attacker, bond.mint.id)).toBe('pending')
    expect((await paymentRecords(ctx())).filter((r) => r.mintId === BigInt(bond.mint.id)).map((r) => r.outcome)).toEqual(['held'])
    expect(JSON.parse(admin('payments', 'held').out)).toEqual([expect.objectContaining({ mintId: String(bond.mint.id) })])
    expect((await sell(attacker, '500', d.chain.devWallet(2).friendly)).status).toBe(400)
    // The cursor never stood on the invention: with the truth told again, the watcher goes on.
    await settle(1)
    expect(svc().watcher.holding).toBeNull()
    expect(await bondStatus(attacker, bond.mint.id)).toBe('pending')
    await expectGuarded()
  })

  it('a price typo (25 for 0.025) is refused; forced through by a tired operator, the sale it would overpay is held, then rejected', async () => {
    const typo = admin('price', 'set', '25')
    expect(typo.status).toBe(1)
    expect(typo.err).toMatch(/^refused: 25 GRAM per AXIOM is \+99900% from the last recorded price 0\.025/)
    expect(admin('price', 'set', '25', '--force').status).toBe(0)
    d.ts.clock.now = Math.floor(Date.now() / 1000) + 1
    await d.ts.server.tick()

    const { telegramId, session: seller } = await newUser()
    expect(admin('credit', String(telegramId), '100').status).toBe(0)
    const sale = ok(await sell(seller, '100', d.chain.devWallet(3).friendly))
    // 97 tokens after the fee at 25 TON: 2425 TON, over the 30 TON per-sale limit.
    expect(sale.amount_ton).toBe('2425')
    await settle()
    expect(salesOnChain().get(saleComment(BigInt(sale.id)))).toBeUndefined()
    expect((await heldSales(ctx())).map((h) => h.id)).toContain(BigInt(sale.id))
    expect(await rejectHeldSale(ctx(), BigInt(sale.id))).toBe(true)
    // The welcome 100 and the credited 100.
    expect(ok(await seller.call('GET', '/user/me')).balance_token).toBe('200')

    expect(admin('price', 'set', '0.025', '--force').status).toBe(0)
    d.ts.clock.now = Math.floor(Date.now() / 1000) + 1
    await d.ts.server.tick()
    await expectGuarded()
    // Five runs of the admin CLI, each a process of its own.
  }, 120_000)

  it('a farm of new accounts cashes task rewards through their own links: every sale is refused', async () => {
    const PHOTO = `data:image/png;base64,${Buffer.from('\x89PNG\r\n\x1a\nfake').toString('base64')}`
    for (let i = 0; i < 4; i++) {
      const { session: s } = await newUser()
      for (const [id, proof] of [[2, { link: 'https://t.me/axiom_news' }], [3, { photo: PHOTO }]] as const) {
        ok(await s.call('POST', '/task/start', { body: { task_id: id } }))
        ok(await s.call('POST', '/task/validate', { body: { task_id: id, ...proof } }))
        ok(await s.call('POST', '/task/claim', { body: { task_id: id } }))
      }
      const link = ok(
        await s.call('POST', '/farming/create', { body: { amount: 13, days: 10, count_activations: 1, is_multilink: false, is_for_me: true, from_task_balance: true } }),
      )
      expect(ok(await s.call('GET', '/farming/activation-status', { query: { activation_code: link.activation_code } })).status).toBe('ACTIVE')
      const bondId = Math.max(...(ok(await s.call('GET', '/mint/')).items as Array<{ id: number }>).map((m) => m.id))
      ok(await s.call('POST', `/mint/${bondId}/cancel`))
      // Everything on the main balance is given: the welcome tokens and the task reward's 90 %.
      const res = await sell(s, '11.7', d.chain.devWallet(4).friendly)
      expect(res.status).toBe(400)
      expect(res.body.msg).toMatch(/cannot be sold/)
      expect(ok(await s.call('GET', '/withdraw/history')).total).toBe(0)
    }
    await expectGuarded()
  })

  it('self-referral: a second account’s bond paid from the referrer’s own wallet earns the referrer nothing to sell', async () => {
    const { session: referrer } = await newUser()
    const own = d.chain.devWallet(5)
    await proveWallet(referrer, own, d.ts.clock.now)
    const refCode = ok(await referrer.call('GET', '/user/me')).ref_code as string
    const { session: second } = await newUser(refCode)
    const bond = ok(await second.call('POST', '/mint/create', { body: { amount: 200, days: 30 } }))
    await d.chain.transfer(own, [{ to: d.chain.treasury.address, value: BigInt(bond.payment.amount_nano), body: commentCell(bond.payment.comment), bounce: true }])
    await settle(1)
    expect(await bondStatus(second, bond.mint.id)).toBe('active')
    expect(ok(await referrer.call('GET', '/user/me')).referral_balance).toBe('0')
    expect((await sell(referrer, '10', own.friendly, true)).status).toBe(400)
    await expectGuarded()
  })

  it('a worker behind the chain: no payout goes while the watcher lags, then each goes once', async () => {
    const { telegramId, session: seller } = await newUser()
    expect(admin('credit', String(telegramId), '400').status).toBe(0)
    const sale = ok(await sell(seller, '400', d.chain.devWallet(1).friendly))
    await svc().watcher.pass()
    const seen = (await readChainSeen(ctx(), TREASURY_CURSOR))!
    // The chain moves 120 s on (a blocked worker, a slow endpoint); the watcher does not read it.
    d.chain.blockchain.now = seen + 120
    for (let i = 0; i < 3; i++) await svc().payouts.pass()
    expect(salesOnChain().get(saleComment(BigInt(sale.id)))).toBeUndefined()
    expect((await readBreaker(ctx().db))!.causes).toEqual([expect.stringMatching(/the watcher is 120 s behind the chain \(limit 60 s\)/)])
    await settle()
    expect(salesOnChain().get(saleComment(BigInt(sale.id)))).toBe(BigInt(Math.round(Number(sale.amount_ton) * 1e9)))
    await settle()
    await expectGuarded()
  })

  it('a drain: many sellers at once, each within the per-sale and per-day limits; the hour’s limit and the reserve stop the rest', async () => {
    const sales: Array<{ id: string; amount: bigint }> = []
    for (let i = 0; i < 8; i++) {
      const { telegramId, session: s } = await newUser()
      expect(admin('credit', String(telegramId), '1200').status).toBe(0)
      const sale = ok(await sell(s, '1200', d.chain.devWallet(i % 4).friendly))
      // 1164 tokens after the fee at 0.025: 29.1 TON, under the 30 TON per-sale limit.
      expect(sale.amount_ton).toBe('29.1')
      sales.push({ id: sale.id, amount: 29_100_000_000n })
    }
    await settle(4)
    const paid = () => sales.filter((s) => salesOnChain().has(saleComment(BigInt(s.id))))
    // The hour's 100 TON: three sales go (87.3 TON); the fourth would take it to 116.4.
    expect(paid().length).toBeLessThanOrEqual(3)
    expect((await readBreaker(ctx().db))!.causes.join('\n')).toMatch(/hour's outflow/)
    await expectGuarded()

    // An hour later the hour's budget is back; now the reserve is what stops the treasury emptying.
    d.ts.clock.now += 3_601
    d.chain.blockchain.now = (d.chain.blockchain.now ?? d.ts.clock.now) + 3_601
    await settle(6)
    expect(await treasuryBalance()).toBeGreaterThanOrEqual(LIMITS.treasuryReserveNano!)
    expect(paid().length).toBeLessThan(sales.length)
    await expectGuarded()
  }, 120_000)
})

describe('red team: a stolen session, with the cooling period production runs (an hour)', () => {
  let main: Deployment
  beforeAll(async () => {
    main = d
    d = await deploy('cooling', { newAddressDelayS: 3_600 })
  }, 120_000)
  afterAll(async () => {
    await d?.close()
    d = main
  })

  it('a thief selling everything to a new address waits an hour; the owner cancels from the bot’s message; nothing leaves', async () => {
    const victim = await newUser()
    await proveWallet(victim.session, d.chain.devWallet(5), d.ts.clock.now)
    const credited = admin('credit', String(victim.telegramId), '1000')
    expect(credited.status, credited.err).toBe(0)
    expect(ok(await victim.session.call('GET', '/user/me'))).toMatchObject({ balance_token: '1100', locked_balance: '100' })
    // The thief holds the victim's session (a stolen token) and sells to an address of their own.
    const stolen = victim.session
    const sale = ok(await sell(stolen, '900', d.chain.devWallet(2).friendly))
    const history = ok(await stolen.call('GET', '/withdraw/history')).items as Array<{ id: number; release_at?: number }>
    expect(history.find((h) => h.id === sale.id)?.release_at).toBeGreaterThanOrEqual(d.ts.clock.now + 3_599)
    // Proving the thief's own wallet with the stolen session does not skip the wait: a fresh proof waits it too.
    await proveWallet(stolen, d.chain.devWallet(2), d.ts.clock.now)
    const second = ok(await sell(stolen, '100', d.chain.devWallet(2).friendly))
    const again = ok(await stolen.call('GET', '/withdraw/history')).items as Array<{ id: number; release_at?: number }>
    expect(again.find((h) => h.id === second.id)?.release_at).toBeGreaterThanOrEqual(d.ts.clock.now + 3_599)
    await settle()
    expect(salesOnChain().get(saleComment(BigInt(sale.id)))).toBeUndefined()
    expect(salesOnChain().get(saleComment(BigInt(second.id)))).toBeUndefined()

    // The owner presses Cancel on the bot's message: the bot signs init data for who pressed and asks the backend.
    for (const id of [sale.id, second.id]) {
      const res = await fetch(`${d.ts.url}/api/telegram/sale-cancel`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ init_data: signInitData({ id: victim.telegramId }, d.ts.clock.now), sale_id: id }),
      })
      expect(res.status).toBe(200)
      expect(((await res.json()) as { outcome: string }).outcome).toBe('cancelled')
    }
    // 900 + 100 + the welcome 100, all back.
    expect(ok(await victim.session.call('GET', '/user/me')).balance_token).toBe('1100')
    // The hour passes: nothing is paid.
    d.ts.clock.now += 3_601
    await settle()
    expect(salesOnChain().size).toBe(0)
    await expectGuarded()
  }, 90_000)
})
