import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { cancelCost, type RewardRecord, rewardAt } from '../../../core/index.ts'
import { CANCEL_PENALTY } from '../../../server/domain/mints.ts'
import { formatNano, percentOfUp } from '../../../server/domain/money.ts'

const bond = (over: Partial<RewardRecord> = {}): RewardRecord => ({
  status: 'active',
  created_at: 1_000_000,
  last_updated_at: null,
  total_amount: 100,
  daily_reward: 1,
  hold_bonus: 0,
  collective_bonus: 0,
  investment_bonus: 0,
  earned_reward: 0,
  max_reward: 30,
  ...over,
})

const nanoOf = (text: string): bigint => {
  const [int = '0', frac = ''] = text.split('.')
  return BigInt(int) * 1_000_000_000n + BigInt(frac.padEnd(9, '0'))
}

/** Bond amounts as the backend allows them (1 to 1 000 000 AXIOM, nano-unit precision). */
const arbAmountNano = fc.bigInt({ min: 1_000_000_000n, max: 1_000_000n * 1_000_000_000n })

describe('cancelCost (what cancelling a bond returns and costs)', () => {
  it('an active bond of 100 returns 90, keeps 10 and gives up the reward so far', () => {
    const b = bond({ earned_reward: 0.5, last_updated_at: 1_000_000 })
    const cost = cancelCost(b, 1_000_000 + 86_400)
    expect(cost.refund).toBe('90')
    expect(cost.penalty).toBe('10')
    expect(cost.rewardGivenUp).toBe(1.5)
  })

  it('rounds the penalty up to the nano-unit, as the backend does', () => {
    expect(cancelCost(bond({ total_amount: 1.000000001 }), 1_000_000)).toMatchObject({ penalty: '0.100000001', refund: '0.9' })
  })

  it('a pending bond was never paid: nothing comes back and nothing is kept', () => {
    expect(cancelCost(bond({ status: 'pending' }), 2_000_000)).toEqual({ refund: '0', penalty: '0', rewardGivenUp: 0 })
  })

  it('law: refund + penalty = amount, and the penalty is 10 % rounded up by less than one nano-unit', () => {
    fc.assert(
      fc.property(arbAmountNano, (amount) => {
        const cost = cancelCost(bond({ total_amount: Number(formatNano(amount)) }), 1_000_000)
        const penalty = nanoOf(cost.penalty)
        expect(nanoOf(cost.refund) + penalty).toBe(amount)
        expect(penalty * 10n >= amount).toBe(true)
        expect((penalty - 1n) * 10n < amount).toBe(true)
      }),
      { numRuns: 500 },
    )
  })

  it('agrees with the backend’s cancel (server/domain/mints.ts) on every amount', () => {
    fc.assert(
      fc.property(arbAmountNano, (amount) => {
        const serverPenalty = percentOfUp(amount, CANCEL_PENALTY)
        const cost = cancelCost(bond({ total_amount: Number(formatNano(amount)) }), 1_000_000)
        expect(cost.penalty).toBe(formatNano(serverPenalty))
        expect(cost.refund).toBe(formatNano(amount - serverPenalty))
      }),
      { numRuns: 500 },
    )
  })

  it('a cancelled bond shows no reward, however long ago it was cancelled', () => {
    const cancelled = bond({ status: 'canceled', earned_reward: 2, last_updated_at: 1_000_000 })
    expect(rewardAt(cancelled, 1_000_000)).toBe(0)
    expect(rewardAt(cancelled, 1_000_000 + 86_400)).toBe(0)
  })
})
