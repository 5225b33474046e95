import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type Session, type TestServer } from './support.ts'

/** Quotes are the terms the record then gets: GET /mint/calculate → the bond, GET /staking/calculate → the stake. */
let t: TestServer
beforeAll(async () => {
  t = await startTestServer()
})
afterAll(() => t.close())

/** Exact decimal text → integer scaled by 10^scale (written here, not taken from the server). */
const scaled = (text: string, scale: number): bigint => {
  const [whole = '0', frac = ''] = text.split('.')
  return BigInt(whole) * 10n ** BigInt(scale) + BigInt((frac + '0'.repeat(scale)).slice(0, scale) || '0')
}
const nano = (text: string) => scaled(text, 9)
const pct = (text: string) => scaled(text, 4)

/** The percent a day a record or a quote earns: daily_reward and its three bonuses (scaled by 1e4). */
const ratePct = (r: Record<string, string>) => pct(r.daily_reward!) + pct(r.hold_bonus!) + pct(r.collective_bonus!) + pct(r.investment_bonus!)
/** amount × rate % × days, floored to the nano: the whole-term reward. */
const wholeTerm = (amount: string, rate: bigint, days: number) => (nano(amount) * rate * BigInt(days)) / (100n * 10_000n)

const TERMS = ['daily_reward', 'hold_bonus', 'collective_bonus', 'investment_bonus', 'max_reward'] as const

let nextId = 9100
const userWithBonuses = async (hold: string, investment: string): Promise<Session> => {
  const id = nextId++
  const s = await t.login(id)
  await t.server.ctx.db.run('UPDATE users SET hold_bonus = ?, investment_bonus = ? WHERE telegram_id = ?', pct(hold), pct(investment), id)
  return s
}

describe('GET /mint/calculate', () => {
  it('sends the bonuses its max_reward is made of: 100 AXIOM × (0.7 + 0.1 collective) % × 30 days = 24', async () => {
    const s = await t.login(nextId++)
    const q = (await s.call('GET', '/mint/calculate', { query: { amount: 100, freeze_days: 30 } })).body
    expect(q).toMatchObject({ daily_reward: '0.7', hold_bonus: '0', collective_bonus: '0.1', investment_bonus: '0', max_reward: '24', tariff_days: 30 })
  })
})

describe('GET /staking/calculate', () => {
  it('quotes 1 %/day and 15 AXIOM for a 50 AXIOM, 30-day bond at 0.7 % + 0.1 % collective, and the stake earns exactly that', async () => {
    const s = await t.login(nextId++)
    const { mint } = (await s.call('POST', '/mint/create', { body: { amount: 50, days: 30 } })).body
    await t.server.markMintPaid(mint.id)
    const quote = (await s.call('GET', '/staking/calculate', { query: { staking_id: mint.id } })).body
    expect(quote).toEqual({
      staking_id: mint.id,
      total_amount: '50',
      daily_reward: '0.9',
      hold_bonus: '0',
      collective_bonus: '0.1',
      investment_bonus: '0',
      max_reward: '15',
      tariff_days: 30,
    })
    const stake = (await s.call('POST', '/staking/create', { body: { mint_id: mint.id } })).body
    expect(stake).toMatchObject({ status: 'active', daily_reward: '0.9', collective_bonus: '0.1', max_reward: '15' })
    // One day later: 50 × 1 % = 0.5 earned.
    t.clock.advance(86_400)
    const later = await t.login(s.telegramId)
    const stakes = (await later.call('GET', '/staking/')).body
    expect(stakes.items[0].earned_reward).toBe('0.5')
  })

  it('law: for any amount, term and bonuses, both quotes are the terms of the bond and of the stake it becomes', async () => {
    const percent = fc.integer({ min: 0, max: 9_999 }).map((n) => `0.${String(n).padStart(4, '0')}`)
    const amount = fc.tuple(fc.integer({ min: 1, max: 50_000 }), fc.integer({ min: 0, max: 999_999_999 })).map(([w, f]) => `${w}.${String(f).padStart(9, '0')}`)
    await fc.assert(
      fc.asyncProperty(amount, fc.constantFrom(10, 30, 60, 90, 180), percent, percent, percent, async (amt, days, hold, investment, collective) => {
        await t.server.admin.setCollectiveBonus(collective)
        const s = await userWithBonuses(hold, investment)
        const bondQuote = (await s.call('GET', '/mint/calculate', { query: { amount: amt, freeze_days: days } })).body
        expect(bondQuote).toMatchObject({ hold_bonus: hold.replace(/\.?0+$/, '') || '0', investment_bonus: investment.replace(/\.?0+$/, '') || '0' })
        expect(nano(bondQuote.max_reward)).toBe(wholeTerm(amt, ratePct(bondQuote), days))

        const { mint } = (await s.call('POST', '/mint/create', { body: { amount: amt, days } })).body
        for (const k of TERMS) expect(mint[k], k).toBe(bondQuote[k])
        await t.server.markMintPaid(mint.id)

        const stakeQuote = (await s.call('GET', '/staking/calculate', { query: { staking_id: mint.id } })).body
        // Staking adds 0.2 % a day to the bond's own daily reward; the bonuses stay the bond's.
        expect(pct(stakeQuote.daily_reward)).toBe(pct(mint.daily_reward) + 2_000n)
        expect(nano(stakeQuote.max_reward)).toBe(wholeTerm(amt, ratePct(stakeQuote), days))
        const stake = (await s.call('POST', '/staking/create', { body: { mint_id: mint.id } })).body
        for (const k of TERMS) expect(stake[k], k).toBe(stakeQuote[k])
        expect(stake.tariff_days).toBe(stakeQuote.tariff_days)
      }),
      { numRuns: 12 },
    )
    await t.server.admin.setCollectiveBonus('0.1')
  })
})
