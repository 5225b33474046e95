/** One row of the referral tier table (spec §3). */
export interface ReferralTier {
  readonly level: number
  readonly threshold: number
  readonly bonus: number
}

/** The 8-tier referral table (spec §3): level, turnover threshold, bonus. */
export const REFERRAL_TIERS: ReadonlyArray<ReferralTier> = [
  { level: 1, threshold: 0, bonus: 5 },
  { level: 2, threshold: 50, bonus: 6 },
  { level: 3, threshold: 500, bonus: 7 },
  { level: 4, threshold: 1_000, bonus: 8 },
  { level: 5, threshold: 5_000, bonus: 9 },
  { level: 6, threshold: 10_000, bonus: 10 },
  { level: 7, threshold: 15_000, bonus: 11 },
  { level: 8, threshold: 20_000, bonus: 12 },
]

/** The highest tier whose threshold is at or below `turnover`; below zero (or NaN) is tier 1. */
export const tierForTurnover = (turnover: number): ReferralTier => {
  let tier = REFERRAL_TIERS[0]!
  for (const t of REFERRAL_TIERS) if (turnover >= t.threshold) tier = t
  return tier
}

/** The API sends a 0-based level; the UI shows it + 1 (spec §3). */
export const displayedLevel = (apiLevel: number): number => apiLevel + 1

/** The next tier up, or null at the top. */
export const nextTier = (tier: ReferralTier): ReferralTier | null =>
  REFERRAL_TIERS.find((t) => t.level === tier.level + 1) ?? null
