/** The Referral tab badge (spec §2): '+N' new referrals since `lastRefCount`, or null when none. */
export const newReferralsBadge = (currentCount: number, lastRefCount: number | null): string | null => {
  const seen = lastRefCount ?? 0
  const n = currentCount - seen
  return n > 0 ? `+${n}` : null
}
