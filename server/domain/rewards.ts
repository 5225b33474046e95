import { PERCENT_SCALE } from './money.ts'

const SECONDS_PER_DAY = 86_400n

export interface RewardTerms {
  readonly total: bigint
  /** daily_reward + hold + collective + investment, percent scaled by 1e4. */
  readonly percentPerDay: bigint
  readonly days: bigint
}

/** The whole-term reward: total × percent/100 × days, floored to nano. */
export const maxReward = (t: RewardTerms): bigint => (t.total * t.percentPerDay * t.days) / (100n * PERCENT_SCALE)

/**
 * The reward earned after `elapsed` seconds, computed from the start each time (never by adding
 * rounded increments), so it is exact to the nano and never exceeds the whole-term reward.
 */
export const earnedAfter = (t: RewardTerms, elapsed: bigint): bigint => {
  const capped = maxReward(t)
  if (elapsed <= 0n) return 0n
  const earned = (t.total * t.percentPerDay * elapsed) / (100n * PERCENT_SCALE * SECONDS_PER_DAY)
  return earned > capped ? capped : earned
}
