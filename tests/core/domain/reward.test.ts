import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { accruedBetween, dailyPercent, type RewardRecord, earningPerSecond, formatAmount, perDayRate, perSecondRate, rewardAt } from '../../../core/index.ts'

const RUNS = { numRuns: 1_000 }

const record = (over: Partial<RewardRecord> = {}): RewardRecord => ({
  status: 'active',
  created_at: 1_000_000,
  last_updated_at: null,
  total_amount: 1_000,
  daily_reward: 1,
  hold_bonus: 0.5,
  collective_bonus: 0.25,
  investment_bonus: 0.25,
  earned_reward: 0,
  max_reward: 300,
  ...over,
})

const arbRecord = fc.record({
  status: fc.constantFrom('active', 'move_to_staking', 'canceled', 'pending', 'completed'),
  created_at: fc.integer({ min: 1_600_000_000, max: 1_900_000_000 }),
  last_updated_at: fc.option(fc.integer({ min: 1_600_000_000, max: 1_900_000_000 }), { nil: null }),
  total_amount: fc.double({ min: 0, max: 1e7, noNaN: true }),
  daily_reward: fc.double({ min: 0, max: 10, noNaN: true }),
  hold_bonus: fc.double({ min: 0, max: 5, noNaN: true }),
  collective_bonus: fc.double({ min: 0, max: 5, noNaN: true }),
  investment_bonus: fc.double({ min: 0, max: 5, noNaN: true }),
  earned_reward: fc.double({ min: 0, max: 1e5, noNaN: true }),
  max_reward: fc.double({ min: 0, max: 1e6, noNaN: true }),
}) as fc.Arbitrary<RewardRecord>

describe('rewardAt (spec §4 reward display)', () => {
  it('shows 0 for a pending record and max_reward for a completed one', () => {
    expect(rewardAt(record({ status: 'pending', earned_reward: 5 }), 2_000_000)).toBe(0)
    expect(rewardAt(record({ status: 'completed', earned_reward: 5 }), 1_000_000)).toBe(300)
  })

  it('accrues total × (daily + hold + collective + investment) / 100 per day, per second', () => {
    // 1000 × 2 % = 20 tokens a day
    expect(perSecondRate(record()) * 86_400).toBeCloseTo(20, 10)
    expect(rewardAt(record(), 1_000_000 + 86_400)).toBeCloseTo(20, 8)
    expect(rewardAt(record(), 1_000_000 + 43_200)).toBeCloseTo(10, 8)
  })

  it('counts from last_updated_at when present, else from created_at, and never backwards', () => {
    const r = record({ earned_reward: 7, last_updated_at: 1_000_000 + 86_400 })
    expect(rewardAt(r, 1_000_000 + 86_400)).toBe(7)
    expect(rewardAt(r, 1_000_000 + 2 * 86_400)).toBeCloseTo(27, 8)
    expect(rewardAt(r, 0)).toBe(7)
  })

  it('is capped at max_reward', () => {
    expect(rewardAt(record({ max_reward: 5 }), 1_000_000 + 10 * 86_400)).toBe(5)
  })

  it('keeps 10 decimals, truncated', () => {
    const r = record({ total_amount: 1, daily_reward: 1, hold_bonus: 0, collective_bonus: 0, investment_bonus: 0 })
    const shown = rewardAt(r, 1_000_001) // 0.01 / 86400 = 1.157407407407…e-7
    expect(shown).toBe(0.0000001157)
  })

  it('law: never decreases over time', () => {
    fc.assert(
      fc.property(arbRecord, fc.integer({ min: 0, max: 400 * 86_400 }), fc.integer({ min: 0, max: 400 * 86_400 }), (r, a, b) => {
        const [t1, t2] = a <= b ? [a, b] : [b, a]
        return rewardAt(r, r.created_at + t1) <= rewardAt(r, r.created_at + t2)
      }),
      RUNS,
    )
  })

  it('law: never exceeds max_reward', () => {
    fc.assert(
      fc.property(arbRecord, fc.integer({ min: -86_400, max: 1_000 * 86_400 }), (r, dt) => rewardAt(r, r.created_at + dt) <= r.max_reward),
      RUNS,
    )
  })

  it('what a stake accrues between two moments does not depend on when the server last settled it', () => {
    const r = record({ created_at: 0, earned_reward: 9, last_updated_at: 86_000, max_reward: 1e6 })
    // 1000 × 2 % = 20 a day
    expect(accruedBetween(r, 86_400, 2 * 86_400)).toBeCloseTo(20, 8)
    expect(accruedBetween(record({ status: 'pending' }), 0, 86_400)).toBe(0)
    expect(accruedBetween(record({ created_at: 0, max_reward: 5 }), 86_400, 2 * 86_400)).toBe(0)
  })

  it('total earned today sums the per-second accrual of active stakes only', () => {
    const a = record()
    const b = record({ total_amount: 500 })
    const pending = record({ status: 'pending', total_amount: 1e6 })
    expect(earningPerSecond([a, b, pending])).toBeCloseTo(perSecondRate(a) + perSecondRate(b), 12)
  })
})

describe('dailyPercent (the daily rate a record or a quote earns)', () => {
  it('adds the collective, hold and investment bonuses to daily_reward', () => {
    // A stake quote of the reference backend: 0.9 % daily (bond 0.7 + staking 0.2) and 0.1 % collective.
    const quote = { daily_reward: 0.9, hold_bonus: 0, collective_bonus: 0.1, investment_bonus: 0, total_amount: 50 }
    expect(dailyPercent(quote)).toBe(1)
    expect(perDayRate(quote)).toBe(0.5)
    expect(dailyPercent(record())).toBe(2)
  })

  it('adds exactly: 0.7 % + 0.1 % is shown as 0.80, never truncated to 0.7999', () => {
    expect(dailyPercent({ daily_reward: 0.7, collective_bonus: 0.1 })).toBe(0.8)
    expect(formatAmount(dailyPercent({ daily_reward: 0.7, collective_bonus: 0.1 }), 4)).toBe('0.80')
    expect(perDayRate({ total_amount: 50, daily_reward: 0.7, collective_bonus: 0.1 })).toBe(0.4)
    expect(dailyPercent({ daily_reward: 0.5, hold_bonus: 0.1, collective_bonus: 0.2, investment_bonus: 0.3 })).toBe(1.1)
  })

  it('counts a bonus a quote leaves out as none', () => {
    expect(dailyPercent({ daily_reward: 0.7 })).toBe(0.7)
    expect(dailyPercent({ daily_reward: 0.9, collective_bonus: 0.1 })).toBe(1)
  })

  it('law: percentages with up to 4 decimals add to the exact decimal sum', () => {
    const pct = fc.integer({ min: 0, max: 200_000 })
    fc.assert(
      fc.property(pct, pct, pct, pct, (a, b, c, d) =>
        dailyPercent({ daily_reward: a / 1e4, hold_bonus: b / 1e4, collective_bonus: c / 1e4, investment_bonus: d / 1e4 }) === (a + b + c + d) / 1e4,
      ),
      RUNS,
    )
  })

  it('law: a record earns its whole term at total × dailyPercent / 100 a day', () => {
    fc.assert(
      fc.property(arbRecord, (r) => Math.abs(perSecondRate(r) * 86_400 - (r.total_amount * dailyPercent(r)) / 100) <= 1e-9 * (1 + r.total_amount * dailyPercent(r))),
      RUNS,
    )
  })
})
