import { REWARD_DECIMALS, SECONDS_PER_DAY } from './constants.ts'
import type { RewardRecord } from './entities/mint.ts'

const REWARD_SCALE = 10 ** REWARD_DECIMALS

/** The percentages that make up a daily rate: a record's, or a quote's (whose bonuses may be absent). */
export interface DailyTerms {
  readonly daily_reward: number
  readonly hold_bonus?: number | undefined
  readonly collective_bonus?: number | undefined
  readonly investment_bonus?: number | undefined
}

/** Percentages are added as whole multiples of 1e-10 %: 0.7 + 0.1 is 0.8, not 0.7999999999999999. */
const PERCENT_STEPS = 1e10
const percentSteps = (x: number | undefined): number => Math.round((x ?? 0) * PERCENT_STEPS)

/** Percent a day a record (or a quoted one) earns: daily_reward + hold + collective + investment (spec §4). */
export const dailyPercent = (r: DailyTerms): number =>
  (percentSteps(r.daily_reward) + percentSteps(r.hold_bonus) + percentSteps(r.collective_bonus) + percentSteps(r.investment_bonus)) /
  PERCENT_STEPS

/** Tokens a record (or a quoted one) earns per day: total_amount × (daily + hold + collective + investment) / 100 (spec §4). */
export const perDayRate = (r: DailyTerms & { readonly total_amount: number }): number => (r.total_amount * dailyPercent(r)) / 100

/** Tokens a record earns per second (spec §4). */
export const perSecondRate = (r: RewardRecord): number => perDayRate(r) / SECONDS_PER_DAY

const truncateReward = (x: number): number => Math.floor(x * REWARD_SCALE) / REWARD_SCALE

/**
 * The reward shown for a mint or stake at `nowSeconds` (spec §4): 0 while pending and once
 * cancelled (a cancelled bond forfeits its reward), `max_reward` once completed, otherwise the earned reward plus the per-second accrual since the last update
 * (or creation), capped at `max_reward`, truncated to 10 decimals.
 */
export const rewardAt = (r: RewardRecord, nowSeconds: number): number => {
  if (r.status === 'pending' || r.status === 'canceled') return 0
  if (r.status === 'completed') return r.max_reward
  const since = r.last_updated_at || r.created_at
  const elapsed = Math.max(0, nowSeconds - since)
  const raw = r.earned_reward + perSecondRate(r) * elapsed
  return Math.min(r.max_reward, truncateReward(Math.min(raw, r.max_reward)))
}

/** The §4 "total earned today" rate: the per-second accrual of active stakes, summed. */
export const earningPerSecond = (stakes: ReadonlyArray<RewardRecord>): number =>
  stakes.reduce((sum, s) => (s.status === 'active' ? sum + perSecondRate(s) : sum), 0)

/**
 * What a record accrues between two moments, from its start at its per-second rate and within its
 * cap: the §4 "total earned today" of a stake is this from the start of the day to now. It does not
 * depend on when the server last brought earned_reward up to date.
 */
export const accruedBetween = (r: RewardRecord, from: number, to: number): number => {
  if (r.status !== 'active') return 0
  const accrued = (t: number) => Math.min(r.max_reward, perSecondRate(r) * Math.max(0, t - r.created_at))
  return Math.max(0, accrued(to) - accrued(Math.min(from, to)))
}
