import type { MintStatus, StakeStatus } from '../../core/domain/entities/mint.ts'
import type { ServerContext } from '../context.ts'
import { big, bool, num, numOrNull, str, type Row } from '../db/sql.ts'
import type { Plan } from '../domain/plans.ts'
import { collectiveBonus } from '../domain/settings.ts'
import { tierOf } from '../domain/tiers.ts'
import { walletOf } from '../domain/wallets.ts'
import { formatNano, formatPercent } from '../money.ts'

/**
 * The API's JSON from the database's rows (spec §7): amounts as decimal text from integer nano-units,
 * percents from their 1e4 scale, flags as booleans. Routes, sockets and live events all answer
 * through these.
 */

const recordWire = (row: Row) => ({
  id: num(row, 'id'),
  created_at: num(row, 'created_at'),
  last_updated_at: numOrNull(row, 'last_updated_at'),
  total_amount: formatNano(big(row, 'total_amount')),
  daily_reward: formatPercent(big(row, 'daily_reward')),
  hold_bonus: formatPercent(big(row, 'hold_bonus')),
  collective_bonus: formatPercent(big(row, 'collective_bonus')),
  investment_bonus: formatPercent(big(row, 'investment_bonus')),
  earned_reward: formatNano(big(row, 'earned_reward')),
  max_reward: formatNano(big(row, 'max_reward')),
  amount_token: formatNano(big(row, 'total_amount')),
  amount_ton: formatNano(big(row, 'amount_ton')),
  tariff_days: num(row, 'tariff_days'),
})

export const mintWire = (row: Row) => ({ ...recordWire(row), status: str(row, 'status') as MintStatus })
export const stakeWire = (row: Row) => ({ ...recordWire(row), status: str(row, 'status') as StakeStatus })

export const balanceWire = (row: Row) => ({
  balance_token: formatNano(big(row, 'balance_token')),
  task_balance: formatNano(big(row, 'task_balance')),
  referral_balance: formatNano(big(row, 'referral_balance')),
  hold_bonus: formatPercent(big(row, 'hold_bonus')),
  investment_bonus: formatPercent(big(row, 'investment_bonus')),
})

export const userWire = (ctx: ServerContext, row: Row) => ({
  ref: { level: tierOf(big(row, 'turnover')).level - 1, turnover: formatNano(big(row, 'turnover')) },
  community_participation: big(row, 'community') !== 0n,
  ...balanceWire(row),
  collective_bonus: formatPercent(collectiveBonus(ctx.db)),
  ref_code: str(row, 'ref_code'),
  /** The wallet bound by tonProof (friendly form), null until one is. */
  wallet_address: walletOf(row),
})

export const withdrawalWire = (row: Row) => ({
  id: num(row, 'id'),
  from_ref_balance: bool(row, 'from_ref_balance'),
  token_amount: formatNano(big(row, 'token_amount')),
  fee: formatNano(big(row, 'fee')),
  net_amount: formatNano(big(row, 'net_amount')),
  amount_ton: formatNano(big(row, 'amount_ton')),
  address: str(row, 'address'),
  // `sending` (stand-ins/chain/payouts.ts: the payout may be on its way) is still unpaid for the client.
  status: (str(row, 'status') === 'sending' ? 'pending' : str(row, 'status')) as 'pending' | 'completed' | 'failed',
  created_at: num(row, 'created_at'),
})

export const linkWire = (row: Row) => ({
  id: num(row, 'id'),
  amount: formatNano(big(row, 'amount')),
  days: num(row, 'days'),
  daily_reward: formatPercent(big(row, 'daily_reward')),
  count_activations: num(row, 'count_activations'),
  used_activations: num(row, 'used_activations'),
  from_ref_balance: bool(row, 'from_ref_balance'),
  from_task_balance: bool(row, 'from_task_balance'),
  is_multilink: bool(row, 'is_multilink'),
  is_for_me: bool(row, 'is_for_me'),
  activation_code: str(row, 'activation_code'),
  created_at: num(row, 'created_at'),
  status: str(row, 'status') as 'active' | 'reached' | 'revoked',
})

export const planWire = (p: Plan) => ({ days: p.days, is_active: p.isActive, daily_reward: formatPercent(p.dailyReward) })
