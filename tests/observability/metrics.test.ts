import { toNano } from '@ton/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REFUND_FEE_NANO } from '../../server/main.ts'
import { big, getRow } from '../../server/db/sql.ts'
import { FORWARD_FEE_TOLERANCE_NANO } from '../../server/chain/payment-rows.ts'
import { commentCell } from '../../stand-ins/chain/local-chain.ts'
import { RELAXED_RATE_LIMITS } from '../support/relaxed-limits.ts'
import { openSocket, type Session } from '../server/support.ts'
import { eventually } from '../chain/support.ts'
import { must, moved, scrape, startMetricsStack, STACK_LIMITS, ton, valueOf, type MetricsStack, type Scrape } from './support.ts'

/**
 * The metrics as Prometheus reads them: the real backend with its metrics listener on a port of its
 * own, scraped over HTTP and read by hand, before and after a bond is bought and paid on the local
 * chain, a payment refunded and a sale paid out: each figure moves by exactly what happened.
 */
let s: MetricsStack
let user: Session

beforeAll(async () => {
  s = await startMetricsStack({
    // One share a window and one open socket per IP: the second of each is refused and counted.
    rateLimits: { ...RELAXED_RATE_LIMITS, share: { max: 1, windowS: 3600 }, sockets: { upgrades: RELAXED_RATE_LIMITS.sockets.upgrades, open: 1 } },
  })
  user = await s.ts.login(7001)
  await s.settle()
})
afterAll(async () => s?.close())

const ctx = () => s.ts.server.ctx
const treasury = () => s.chain.treasury.wallet.address
const pay = (wallet: number, value: bigint, comment: string) =>
  s.chain.transfer(s.chain.devWallet(wallet), [{ to: treasury(), value, body: commentCell(comment), bounce: true }])

/** Moves the sandbox's clock (the chain's time of the next block, and of /block/latest). */
const chainClockAdvance = (seconds: number) => {
  s.chain.blockchain.now = s.chain.blockchain.now! + seconds
}

let nextAmount = 10
const createBond = async () => {
  const res = await user.call('POST', '/mint/create', { body: { amount: nextAmount++, days: 30 } })
  expect(res.status).toBe(200)
  return res.body as { mint: { id: number }; payment: { amount_nano: string; comment: string } }
}

const requests = (m: Scrape, method: string, route: string, status: number) =>
  valueOf(m, 'axiom_http_request_duration_seconds_count', { method, route, status: String(status) }) ?? 0

describe('the metrics listener', () => {
  it('serves the Prometheus text on its own port, and the API port serves no metrics', async () => {
    expect(new URL(s.metricsUrl).port).not.toBe(String(s.ts.server.port))
    const m = await scrape(s.metricsUrl)
    expect(m.families.get('axiom_http_request_duration_seconds')).toBe('histogram')
    expect(m.families.get('axiom_chain_payments')).toBe('gauge')
    // Node's own figures come along (prom-client's default metrics).
    expect(m.families.has('process_cpu_seconds_total')).toBe(true)
    for (const path of ['/metrics', '/api/metrics', '/metrics/']) {
      const res = await fetch(`${s.ts.url}${path}`)
      expect(res.status, path).toBe(404)
      expect(await res.text()).not.toContain('# TYPE')
    }
    // The listener answers /metrics alone, and GET alone.
    expect((await fetch(new URL('/api/user/me', s.metricsUrl))).status).toBe(404)
    expect((await fetch(s.metricsUrl, { method: 'POST' })).status).toBe(405)
  })

  it('shows this instance, the limits set and the database answering', async () => {
    const m = await scrape(s.metricsUrl)
    expect(must(m, 'axiom_instance_info', { role: 'all', database: 'sqlite' })).toBe(1)
    expect(must(m, 'axiom_database_up')).toBe(1)
    expect(must(m, 'axiom_database_ping_seconds')).toBeGreaterThanOrEqual(0)
    expect(must(m, 'axiom_payout_limit_ton', { limit: 'hour' })).toBe(ton(STACK_LIMITS.maxHourNano))
    expect(must(m, 'axiom_payout_limit_ton', { limit: 'sale' })).toBe(ton(STACK_LIMITS.maxSaleNano))
    expect(must(m, 'axiom_payout_limit_ton', { limit: 'user_day' })).toBe(ton(STACK_LIMITS.maxUserDayNano))
    expect(must(m, 'axiom_payout_limit_ton', { limit: 'reserve' })).toBe(ton(STACK_LIMITS.treasuryReserveNano))
    expect(must(m, 'axiom_payout_max_lag_seconds')).toBe(STACK_LIMITS.maxLagS)
    // SQLite has no pool; the dev price walk is always current and has no maximum age.
    expect([...m.samples.keys()].filter((k) => k.startsWith('axiom_database_pool_connections'))).toEqual([])
    expect(must(m, 'axiom_price_age_seconds')).toBe(0)
    expect(valueOf(m, 'axiom_price_max_age_seconds')).toBeUndefined()
  })
})

describe('a bond bought on the chain, a refund and a sale', () => {
  it("a bond paid: the watcher's lag, then the payment credited, the treasury's balance and the request counted", async () => {
    const before = await scrape(s.metricsUrl)
    // Caught up after the settle: no lag.
    expect(must(before, 'axiom_watcher_lag_seconds')).toBe(0)
    expect(must(before, 'axiom_watcher_lag_blocks')).toBe(0)
    expect(must(before, 'axiom_chain_up')).toBe(1)
    expect(must(before, 'axiom_treasury_balance_ton')).toBeCloseTo(ton(await s.chain.balance(treasury())), 9)

    const { payment } = await createBond()
    chainClockAdvance(20)
    await pay(1, BigInt(payment.amount_nano), payment.comment)
    // One block, 20 s of chain time, that the watcher has not read yet.
    const behind = await scrape(s.metricsUrl)
    expect(moved(before, behind, 'axiom_chain_head_seqno')).toBe(1)
    expect(must(behind, 'axiom_watcher_lag_seconds')).toBe(20)
    expect(must(behind, 'axiom_watcher_lag_blocks')).toBe(1)
    expect(moved(before, behind, 'axiom_chain_payments', { outcome: 'activated' })).toBe(0)

    await s.settle()
    const after = await scrape(s.metricsUrl)
    expect(must(after, 'axiom_watcher_lag_seconds')).toBe(0)
    expect(must(after, 'axiom_watcher_lag_blocks')).toBe(0)
    expect(must(after, 'axiom_watcher_seen_time_seconds')).toBe(s.chain.blockchain.now)
    expect(moved(before, after, 'axiom_chain_payments', { outcome: 'activated' })).toBe(1)
    expect(moved(before, after, 'axiom_chain_payments_ton', { outcome: 'activated' })).toBeCloseTo(ton(BigInt(payment.amount_nano)), 9)
    expect(moved(before, after, 'axiom_chain_payments', { outcome: 'refunded' })).toBe(0)
    // The balance is the chain's, read at the scrape: what arrived, less the treasury's receive fees.
    const balance = await s.chain.balance(treasury())
    expect(must(after, 'axiom_treasury_balance_ton')).toBeCloseTo(ton(balance), 9)
    expect(moved(before, after, 'axiom_treasury_balance_ton')).toBeGreaterThan(ton(BigInt(payment.amount_nano) - toNano('0.002')))
    // The request that made the bond, by its route's pattern.
    expect(requests(after, 'POST', '/api/mint/create', 200) - requests(before, 'POST', '/api/mint/create', 200)).toBe(1)
  })

  it('an underpaid bond: refunded, and the refund queued then paid', async () => {
    const { payment } = await createBond()
    const paid = BigInt(payment.amount_nano) - FORWARD_FEE_TOLERANCE_NANO - 1_000_000n
    const before = await scrape(s.metricsUrl)
    await pay(2, paid, payment.comment)
    await s.ts.server.chain()!.watcher.pass()
    const decided = await scrape(s.metricsUrl)
    expect(moved(before, decided, 'axiom_chain_payments', { outcome: 'refunded' })).toBe(1)
    expect(moved(before, decided, 'axiom_chain_payments_ton', { outcome: 'refunded' })).toBeCloseTo(ton(paid), 9)
    expect(moved(before, decided, 'axiom_payouts', { kind: 'refund', state: 'queued' })).toBe(1)
    expect(moved(before, decided, 'axiom_payouts_ton', { kind: 'refund', state: 'queued' })).toBeCloseTo(ton(paid - REFUND_FEE_NANO), 9)

    await s.settle()
    const refunded = await scrape(s.metricsUrl)
    expect(moved(before, refunded, 'axiom_payouts', { kind: 'refund', state: 'queued' })).toBe(0)
    expect(moved(before, refunded, 'axiom_payouts', { kind: 'refund', state: 'paid' })).toBe(1)
    expect(moved(before, refunded, 'axiom_payouts_ton', { kind: 'refund', state: 'paid' })).toBeCloseTo(ton(paid - REFUND_FEE_NANO), 9)
    // A refund is outflow, as the breaker counts it.
    expect(moved(before, refunded, 'axiom_payout_hour_outflow_ton')).toBeCloseTo(ton(paid - REFUND_FEE_NANO), 9)
  })

  it('a sale: pending, then in the queue and in flight, then paid and completed', async () => {
    await s.ts.server.admin.credit(7001, '100')
    const before = await scrape(s.metricsUrl)
    const res = await user.call('POST', '/withdraw/create', { body: { token_amount: '10', address: s.chain.devWallet(1).friendly } })
    expect(res.status).toBe(200)
    const amount = big((await getRow(ctx().db, 'SELECT amount_ton FROM withdrawals WHERE id = ?', BigInt(res.body.id)))!, 'amount_ton')
    const pending = await scrape(s.metricsUrl)
    expect(moved(before, pending, 'axiom_sales', { status: 'pending' })).toBe(1)
    expect(moved(before, pending, 'axiom_sales_ton', { status: 'pending' })).toBeCloseTo(ton(amount), 9)

    // The payout pass alone: the sale is queued, signed and sent; the watcher has not seen it land.
    await s.ts.server.chain()!.payouts.pass()
    const inFlight = await scrape(s.metricsUrl)
    expect(moved(before, inFlight, 'axiom_sales', { status: 'pending' })).toBe(0)
    expect(moved(before, inFlight, 'axiom_sales', { status: 'sending' })).toBe(1)
    expect(moved(before, inFlight, 'axiom_payouts', { kind: 'sale', state: 'sending' })).toBe(1)
    expect(moved(before, inFlight, 'axiom_payouts_ton', { kind: 'sale', state: 'sending' })).toBeCloseTo(ton(amount), 9)

    await s.settle()
    const paid = await scrape(s.metricsUrl)
    expect(moved(before, paid, 'axiom_payouts', { kind: 'sale', state: 'sending' })).toBe(0)
    expect(moved(before, paid, 'axiom_payouts', { kind: 'sale', state: 'paid' })).toBe(1)
    expect(moved(before, paid, 'axiom_payouts_ton', { kind: 'sale', state: 'paid' })).toBeCloseTo(ton(amount), 9)
    expect(moved(before, paid, 'axiom_sales', { status: 'completed' })).toBe(1)
    expect(moved(before, paid, 'axiom_sales_ton', { status: 'completed' })).toBeCloseTo(ton(amount), 9)
    expect(moved(before, paid, 'axiom_payout_hour_outflow_ton')).toBeCloseTo(ton(amount), 9)
    // The treasury paid the sale and the network's fees.
    expect(-moved(before, paid, 'axiom_treasury_balance_ton')).toBeGreaterThan(ton(amount))
    expect(-moved(before, paid, 'axiom_treasury_balance_ton')).toBeLessThan(ton(amount + toNano('0.01')))
    expect(must(paid, 'axiom_payout_breaker_causes')).toBe(0)
    expect(must(paid, 'axiom_payouts', { kind: 'sale', state: 'failed' })).toBe(0)
  })

  it('a sale over the per-sale limit is held, and shown held', async () => {
    await s.ts.server.admin.credit(7001, '100000')
    const before = await scrape(s.metricsUrl)
    // Well over the 500 TON limit at any price the walk gives.
    const res = await user.call('POST', '/withdraw/create', { body: { token_amount: '90000', address: s.chain.devWallet(2).friendly } })
    expect(res.status).toBe(200)
    const amount = big((await getRow(ctx().db, 'SELECT amount_ton FROM withdrawals WHERE id = ?', BigInt(res.body.id)))!, 'amount_ton')
    expect(amount).toBeGreaterThan(STACK_LIMITS.maxSaleNano)
    await s.ts.server.chain()!.payouts.pass()
    const held = await scrape(s.metricsUrl)
    expect(moved(before, held, 'axiom_sales', { status: 'held' })).toBe(1)
    expect(moved(before, held, 'axiom_sales_ton', { status: 'held' })).toBeCloseTo(ton(amount), 9)
    expect(moved(before, held, 'axiom_payouts', { kind: 'sale', state: 'sending' })).toBe(0)
  })

  it("the watcher's lag in blocks counts from the watcher's own block, however many blocks came before it", async () => {
    await s.settle()
    const caughtUp = await scrape(s.metricsUrl)
    expect(must(caughtUp, 'axiom_watcher_lag_blocks')).toBe(0)
    // Many blocks since this instance's first scrape; two past the watcher, 45 s of chain time.
    chainClockAdvance(45)
    await pay(0, toNano('1'), 'a top-up')
    await pay(0, toNano('1'), 'another top-up')
    const behind = await scrape(s.metricsUrl)
    expect(must(behind, 'axiom_watcher_lag_blocks')).toBe(2)
    expect(must(behind, 'axiom_watcher_lag_seconds')).toBe(45)
    await s.settle()
    const after = await scrape(s.metricsUrl)
    expect(must(after, 'axiom_watcher_lag_blocks')).toBe(0)
    expect(moved(caughtUp, after, 'axiom_chain_payments', { outcome: 'ignored' })).toBe(2)
    expect(moved(caughtUp, after, 'axiom_chain_payments_ton', { outcome: 'ignored' })).toBeCloseTo(2, 9)
  })
})

describe('requests, limits and sockets', () => {
  it('counts requests by route pattern and status, never by the raw URL', async () => {
    const before = await scrape(s.metricsUrl)
    const { mint } = await createBond()
    expect((await user.call('POST', `/mint/${mint.id}/cancel`)).status).toBe(200)
    expect((await user.call('GET', '/no/such/route/12345')).status).toBe(404)
    const after = await scrape(s.metricsUrl)
    expect(requests(after, 'POST', '/api/mint/:id/cancel', 200) - requests(before, 'POST', '/api/mint/:id/cancel', 200)).toBe(1)
    expect(requests(after, 'GET', 'unmatched', 404) - requests(before, 'GET', 'unmatched', 404)).toBe(1)
    const routes = [...after.samples.keys()].filter((k) => k.startsWith('axiom_http_request_duration_seconds_count'))
    expect(routes.some((k) => k.includes(`/${mint.id}/`) || k.includes('12345'))).toBe(false)
  })

  it('counts each refusal of the rate limits, for requests and for socket upgrades', async () => {
    const before = await scrape(s.metricsUrl)
    await user.call('POST', '/user/share-message', { body: {} })
    expect((await user.call('POST', '/user/share-message', { body: {} })).status).toBe(429)
    const refused = await scrape(s.metricsUrl)
    expect(moved(before, refused, 'axiom_rate_limit_refusals_total', { scope: 'request' })).toBe(1)
    expect(requests(refused, 'POST', '/api/user/share-message', 429) - requests(before, 'POST', '/api/user/share-message', 429)).toBe(1)

    const first = await openSocket(s.ts.url, '/api/ws/candles')
    try {
      const open = await scrape(s.metricsUrl)
      expect(must(open, 'axiom_open_sockets', { socket: 'candles' })).toBe(1)
      expect(must(open, 'axiom_open_sockets', { socket: 'main' })).toBe(0)
      // One socket per IP: the second upgrade is refused.
      await expect(openSocket(s.ts.url, '/api/ws/candles')).rejects.toThrow(/429/)
      const second = await scrape(s.metricsUrl)
      expect(moved(refused, second, 'axiom_rate_limit_refusals_total', { scope: 'socket' })).toBe(1)
      expect(moved(refused, second, 'axiom_rate_limit_refusals_total', { scope: 'request' })).toBe(0)
    } finally {
      first.close()
    }
    await eventually(async () => (await scrape(s.metricsUrl)).samples.get('axiom_open_sockets{socket="candles"}') === 0)
  })
})
