import type { MintStatus, StakeStatus } from '../../core/domain/entities/mint.ts'

/**
 * The rows the domain returns, as SQLite holds them (server/db/migrations.ts) and reads them back
 * (safeIntegers): every integer a bigint, amounts in nano-units, percents on the 1e4 scale, flags 0/1.
 * server/http/wire-format.ts alone turns them into the API's JSON.
 */

/** Bonds and stakes share their columns and their reward rule. */
type PositionRow<S extends string> = {
  readonly id: bigint
  readonly user_id: bigint
  readonly status: S
  readonly created_at: bigint
  readonly activated_at: bigint | null
  readonly ends_at: bigint | null
  readonly last_updated_at: bigint | null
  readonly total_amount: bigint
  readonly daily_reward: bigint
  readonly hold_bonus: bigint
  readonly collective_bonus: bigint
  readonly investment_bonus: bigint
  readonly earned_reward: bigint
  readonly max_reward: bigint
  readonly amount_ton: bigint
  readonly tariff_days: bigint
  /** The part of total_amount that is locked (comes back to balance_token locked). */
  readonly locked_nano: bigint
  /** The record's place among its owner's records of its kind, the first being 1 (read with `positionColumns`). */
  readonly user_number?: bigint
}

/**
 * Every column of a bond or stake plus `user_number`: a user's first bond is #1 whatever the ids
 * of other users' bonds, and stays #1 on any page of the list.
 */
export const positionColumns = (table: 'mints' | 'stakes'): string =>
  `*, (SELECT COUNT(*) FROM ${table} n WHERE n.user_id = ${table}.user_id AND n.id <= ${table}.id) AS user_number`

/** A record's place among its owner's records of its kind (the number the app and the bot show). */
export const ownNumberSql = (table: 'mints' | 'stakes'): string =>
  `SELECT COALESCE(p.user_seq, (SELECT COUNT(*) FROM ${table} n WHERE n.user_id = p.user_id AND n.id <= p.id)) AS n FROM ${table} p WHERE p.id = ?`

export type MintRow = PositionRow<MintStatus> & {
  readonly source: 'ton' | 'farming'
  readonly link_id: bigint | null
  readonly paid_nano: bigint | null
  readonly penalty: bigint
}

export type StakeRow = PositionRow<StakeStatus> & { readonly mint_id: bigint }

export type UserRow = {
  readonly id: bigint
  readonly telegram_id: bigint
  readonly name: string
  readonly ref_code: string
  readonly referrer_id: bigint | null
  readonly community: bigint
  readonly balance_token: bigint
  readonly task_balance: bigint
  readonly referral_balance: bigint
  readonly hold_bonus: bigint
  readonly investment_bonus: bigint
  readonly turnover: bigint
  readonly created_at: bigint
  /** Raw form; null until a wallet is bound by tonProof. */
  readonly wallet_address: string | null
  readonly wallet_network: string | null
  readonly wallet_bound_at: bigint | null
  /** The part of balance_token usable for bonds but not for sale (welcome tokens under the 'locked' policy). */
  readonly locked_nano: bigint
}

/** The user's columns /user/me answers with (server/http/wire-format.ts, userWire). */
export const ME_COLUMNS = [
  'turnover',
  'community',
  'balance_token',
  'task_balance',
  'referral_balance',
  'hold_bonus',
  'investment_bonus',
  'locked_nano',
  'ref_code',
  'wallet_address',
  'wallet_network',
] as const
export type MeRow = Pick<UserRow, (typeof ME_COLUMNS)[number]>

export type LinkRow = {
  readonly id: bigint
  readonly user_id: bigint
  readonly activation_code: string
  readonly amount: bigint
  readonly days: bigint
  readonly daily_reward: bigint
  readonly count_activations: bigint
  readonly used_activations: bigint
  readonly from_ref_balance: bigint
  readonly from_task_balance: bigint
  readonly is_multilink: bigint
  readonly is_for_me: bigint
  readonly status: 'active' | 'reached' | 'revoked'
  readonly created_at: bigint
  /** The part of the unused fund that is locked; activations take it first. */
  readonly locked_nano: bigint
}

/** `sending`: in the outgoing queue (server/chain/payouts.ts): its payout may be on its way. `held`: over a payout limit, for the operator (server/domain/sale-payouts.ts). */
export type WithdrawalRow = {
  readonly id: bigint
  readonly user_id: bigint
  readonly from_ref_balance: bigint
  readonly token_amount: bigint
  readonly fee: bigint
  readonly net_amount: bigint
  readonly amount_ton: bigint
  readonly address: string
  readonly status: 'pending' | 'sending' | 'held' | 'completed' | 'failed'
  readonly created_at: bigint
  /** A sale to an address its user has not proven: not paid before this (unix seconds); null goes at once. */
  readonly release_at: bigint | null
  /** When its user cancelled it from the bot's message, while it waited (then `failed`, its tokens returned). */
  readonly cancelled_at: bigint | null
}

export type OperationRow = {
  readonly id: bigint
  readonly user_id: bigint
  readonly type: string
  readonly balance: string
  readonly amount: bigint
  readonly created_at: bigint
  readonly description: string
  /** What amount is counted in: 'token' (the app's coin) or 'ton' (migration 19; rows before it are 'token'). */
  readonly unit: string
}
