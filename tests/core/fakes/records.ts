import {
  type FarmingLink,
  type Mint,
  type MintPlan,
  type Operation,
  type Referral,
  type Stake,
  type Task,
  type UserData,
  type Withdrawal,
  toId,
} from '../../../core/index.ts'

/** Data factories: a plausible record, with the fields a test cares about overridden. Ids may be given
 * as on the wire (`2` or `"2"`); the record holds the canonical id, as a decoded one would. */
type WireIds<T, K extends keyof T> = Partial<Omit<T, K>> & { readonly [P in K]?: number | string }
const ids = <T extends object>(o: T, ...keys: ReadonlyArray<string>): T => {
  const out = { ...o } as Record<string, unknown>
  for (const k of keys) if (out[k] !== undefined) out[k] = toId(out[k] as number | string)
  return out as T
}

export const aUser = (o: Partial<UserData> = {}): UserData => ({
  ref: { level: 0 },
  community_participation: true,
  balance_token: 1_000,
  task_balance: 50,
  referral_balance: 120,
  hold_bonus: 0.1,
  investment_bonus: 0.2,
  collective_bonus: 0.3,
  ref_code: 'REF42',
  ...o,
})

const record = {
  created_at: 1_700_000_000,
  last_updated_at: null,
  total_amount: 100,
  daily_reward: 1,
  hold_bonus: 0,
  collective_bonus: 0,
  investment_bonus: 0,
  earned_reward: 0,
  max_reward: 30,
  amount_token: 100,
  amount_ton: 1.5,
  tariff_days: 30,
}

export const aMint = (o: WireIds<Mint, 'id'> = {}): Mint => ids({ ...record, id: 1, status: 'active', ...o }, 'id') as Mint
export const aStake = (o: WireIds<Stake, 'id'> = {}): Stake => ids({ ...record, id: 1, status: 'active', ...o }, 'id') as Stake

export const aPlan = (days: number, is_active = true): MintPlan => ({ days, is_active })

export const aTask = (o: WireIds<Task, 'task_id'> = {}): Task =>
  ids({ task_id: 7, status: 'NEW', title: 'Join the channel', ...o }, 'task_id') as Task

export const aFarmingLink = (o: WireIds<FarmingLink, 'id'> = {}): FarmingLink =>
  ids({
  id: 1,
  amount: 10,
  days: 30,
  count_activations: 1,
  from_ref_balance: true,
  from_task_balance: false,
  is_multilink: false,
  is_for_me: false,
  activation_code: 'CODE1234',
  created_at: 1_700_000_000,
  ...o,
}, 'id') as FarmingLink

export const aWithdrawal = (o: WireIds<Withdrawal, 'id'> = {}): Withdrawal =>
  ids({
  id: 1,
  from_ref_balance: false,
  token_amount: 10,
  address: `0:${'11'.repeat(32)}`,
  status: 'pending',
  created_at: 1_700_000_000,
  ...o,
}, 'id') as Withdrawal

export const anOperation = (o: WireIds<Operation, 'id'> = {}): Operation =>
  ids({
  id: 1,
  type: 'mint',
  amount: 10,
  created_at: 1_700_000_000,
  ...o,
}, 'id') as Operation

export const aReferral = (id: number): Referral => ({ id: toId(id), name: `friend ${id}` })
