/** The balance a farming link spends as the API names it: referral, task, or (both false) the main balance. */
export type FundingFlags = {
  readonly from_ref_balance: boolean
  readonly from_task_balance: boolean
}

/**
 * The balance a farming link is paid from: the main balance (re-bonding from the dashboard), the
 * referral balance or the task balance (re-bonding from the referral or tasks screen).
 */
export type FundingSource = 'main' | 'referral' | 'task'

/** The §7 flags for a source: the main balance is neither flag. */
export const fundingFlags = (source: FundingSource): FundingFlags => ({
  from_ref_balance: source === 'referral',
  from_task_balance: source === 'task',
})

/** The source a link's flags name. */
export const fundingSourceOf = (flags: FundingFlags): FundingSource =>
  flags.from_ref_balance ? 'referral' : flags.from_task_balance ? 'task' : 'main'
