import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { REFERRAL_TIERS, displayedLevel, newReferralsBadge, tierForTurnover } from '../../../core/index.ts'

describe('referral tiers (spec §3)', () => {
  it('is the 8-row table of the spec', () => {
    expect(REFERRAL_TIERS.map((t) => [t.level, t.threshold, t.bonus])).toEqual([
      [1, 0, 5],
      [2, 50, 6],
      [3, 500, 7],
      [4, 1000, 8],
      [5, 5000, 9],
      [6, 10000, 10],
      [7, 15000, 11],
      [8, 20000, 12],
    ])
  })

  it('picks the highest tier at or below the turnover', () => {
    expect(tierForTurnover(0).level).toBe(1)
    expect(tierForTurnover(49.99).level).toBe(1)
    expect(tierForTurnover(50).level).toBe(2)
    expect(tierForTurnover(19_999).level).toBe(7)
    expect(tierForTurnover(1e12).level).toBe(8)
  })

  it('law: tiers are monotone in turnover and cover every turnover ≥ 0', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e9, noNaN: true }), fc.double({ min: 0, max: 1e9, noNaN: true }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a]
        const tLo = tierForTurnover(lo)
        const tHi = tierForTurnover(hi)
        return tLo.level <= tHi.level && tLo.bonus <= tHi.bonus && tLo.threshold <= lo && REFERRAL_TIERS.includes(tLo)
      }),
      { numRuns: 1_000 },
    )
  })

  it('shows the API level + 1', () => {
    expect(displayedLevel(0)).toBe(1)
  })

  it("badges '+N' new referrals against lastRefCount", () => {
    expect(newReferralsBadge(5, 3)).toBe('+2')
    expect(newReferralsBadge(3, 3)).toBeNull()
    expect(newReferralsBadge(2, null)).toBe('+2')
    expect(newReferralsBadge(0, null)).toBeNull()
  })
})
