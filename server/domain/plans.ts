import { InvalidInput } from './errors.ts'

export interface Plan {
  readonly days: number
  /** Percent per day, scaled by 1e4. */
  readonly dailyReward: bigint
  readonly isActive: boolean
}

/** The bond plans; the 3-day plan is retired (inactive) and the client must hide it. */
export const MINT_PLANS: ReadonlyArray<Plan> = [
  { days: 3, dailyReward: 3_000n, isActive: false },
  { days: 10, dailyReward: 5_000n, isActive: true },
  { days: 30, dailyReward: 7_000n, isActive: true },
  { days: 60, dailyReward: 9_000n, isActive: true },
  { days: 90, dailyReward: 11_000n, isActive: true },
  { days: 180, dailyReward: 13_000n, isActive: true },
]

/** What staking adds to a bond's daily reward (0.2 % a day). */
export const STAKING_EXTRA_DAILY = 2_000n

/** The active plan for `days`, or 422 listing the offered day counts. */
export const activePlan = (field: string, days: number): Plan => {
  const plan = MINT_PLANS.find((p) => p.isActive && p.days === days)
  if (!plan)
    throw new InvalidInput(
      `${field} must be one of ${MINT_PLANS.filter((p) => p.isActive)
        .map((p) => p.days)
        .join(', ')}`,
    )
  return plan
}
