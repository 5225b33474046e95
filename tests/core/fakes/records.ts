import type {
  FarmingLink,
  Mint,
  MintPlan,
  Operation,
  Referral,
  Stake,
  Task,
  UserData,
  Withdrawal,
} from '../../../core/index.ts'

/** Data factories: a plausible record, with the fields a test cares about overridden. */

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

export const aMint = (o: Partial<Mint> = {}): Mint => ({ ...record, id: 1, status: 'active', ...o })
export const aStake = (o: Partial<Stake> = {}): Stake => ({ ...record, id: 1, status: 'active', ...o })

export const aPlan = (days: number, is_active = true): MintPlan => ({ days, is_active })

export const aTask = (o: Partial<Task> = {}): Task => ({ task_id: 7, status: 'NEW', title: 'Join the channel', ...o })

export const aFarmingLink = (o: Partial<FarmingLink> = {}): FarmingLink => ({
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
})

export const aWithdrawal = (o: Partial<Withdrawal> = {}): Withdrawal => ({
  id: 1,
  from_ref_balance: false,
  token_amount: 10,
  address: `0:${'11'.repeat(32)}`,
  status: 'pending',
  created_at: 1_700_000_000,
  ...o,
})

export const anOperation = (o: Partial<Operation> = {}): Operation => ({
  id: 1,
  type: 'mint',
  amount: 10,
  created_at: 1_700_000_000,
  ...o,
})

export const aReferral = (id: number): Referral => ({ id, name: `friend ${id}` })
