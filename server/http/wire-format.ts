import type { LiveEvent } from '../domain/events.ts'
import type { Activation } from '../domain/farming.ts'
import type { BondTerms, CreatedMint } from '../domain/mints.ts'
import type { Plan } from '../domain/plans.ts'
import type { CandleNano, PriceNow } from '../domain/price-walk.ts'
import type { LinkRow, MeRow, MintRow, OperationRow, StakeRow, UserRow, WithdrawalRow } from '../domain/rows.ts'
import type { StakeQuote } from '../domain/staking.ts'
import type { FinancialStats } from '../domain/stats.ts'
import { operationText, unitName } from '../domain/operation-texts.ts'
import type { TaskProgress } from '../domain/tasks.ts'
import { tierOf } from '../domain/tiers.ts'
import type { Referral } from '../domain/users.ts'
import { walletOf } from '../domain/wallets.ts'
import type { WithdrawQuote } from '../domain/withdraw.ts'
import { formatFixed, formatNano, formatPercent } from '../domain/money.ts'

/**
 * The API's JSON from the domain's rows and records (spec §7): amounts as decimal text from integer
 * nano-units, percents from their 1e4 scale, ids and times as numbers, flags as booleans. Routes and
 * live events all answer through these; nothing else builds the API's JSON of a record.
 */

const flag = (v: bigint): boolean => v !== 0n
const numOrNull = (v: bigint | null): number | null => (v === null ? null : Number(v))

const positionWire = <S extends string>(row: MintRow | StakeRow) => ({
  id: Number(row.id),
  created_at: Number(row.created_at),
  last_updated_at: numOrNull(row.last_updated_at),
  total_amount: formatNano(row.total_amount),
  daily_reward: formatPercent(row.daily_reward),
  hold_bonus: formatPercent(row.hold_bonus),
  collective_bonus: formatPercent(row.collective_bonus),
  investment_bonus: formatPercent(row.investment_bonus),
  earned_reward: formatNano(row.earned_reward),
  max_reward: formatNano(row.max_reward),
  amount_token: formatNano(row.total_amount),
  amount_ton: formatNano(row.amount_ton),
  tariff_days: Number(row.tariff_days),
  status: row.status as S,
  // The per-user number the app shows ("Bond #1"); `id` stays the server's key.
  ...(row.user_number === undefined ? {} : { number: Number(row.user_number) }),
})

export const mintWire = (row: MintRow) => positionWire<MintRow['status']>(row)
export const stakeWire = (row: StakeRow) => positionWire<StakeRow['status']>(row)

/** `POST /mint/create`: the pending bond and the TON payment that activates it. */
export const createdMintWire = ({ mint, payment }: CreatedMint) => ({
  mint: mintWire(mint),
  payment: {
    address: payment.address,
    amount_nano: payment.amountNano.toString(),
    comment: payment.comment,
    valid_until: payment.validUntil,
  },
})

/** `GET /mint/calculate` and `GET /farming/calculate`. */
export const bondQuoteWire = (t: BondTerms) => ({
  amount_token: formatNano(t.total),
  amount_ton: formatNano(t.amountTon),
  tariff_days: t.days,
  daily_reward: formatPercent(t.daily),
  hold_bonus: formatPercent(t.hold),
  collective_bonus: formatPercent(t.collective),
  investment_bonus: formatPercent(t.investment),
  max_reward: formatNano(t.max),
  expected_reward: formatNano(t.max),
})

/** `GET /staking/calculate`. */
export const stakeQuoteWire = (q: StakeQuote) => ({
  staking_id: Number(q.mintId),
  total_amount: formatNano(q.total),
  daily_reward: formatPercent(q.daily),
  hold_bonus: formatPercent(q.hold),
  collective_bonus: formatPercent(q.collective),
  investment_bonus: formatPercent(q.investment),
  max_reward: formatNano(q.max),
  tariff_days: q.days,
})

export const balanceWire = (user: MeRow) => ({
  balance_token: formatNano(user.balance_token),
  task_balance: formatNano(user.task_balance),
  referral_balance: formatNano(user.referral_balance),
  hold_bonus: formatPercent(user.hold_bonus),
  investment_bonus: formatPercent(user.investment_bonus),
  /** The part of balance_token that can fund bonds but cannot be sold (welcome tokens). */
  locked_balance: formatNano(user.locked_nano),
})

/** `GET /user/me`, with the platform's collective bonus (1e4 scale). */
export const userWire = (user: MeRow, collectiveBonus: bigint) => ({
  ref: { level: tierOf(user.turnover).level - 1, turnover: formatNano(user.turnover) },
  community_participation: flag(user.community),
  ...balanceWire(user),
  collective_bonus: formatPercent(collectiveBonus),
  ref_code: user.ref_code,
  /** The wallet bound by tonProof (friendly form), null until one is. */
  wallet_address: walletOf(user),
})

/** `POST /withdraw/transfer-from-referral-balance`: the two balances after the move. */
export const transferWire = (user: UserRow) => ({
  balance_token: formatNano(user.balance_token),
  referral_balance: formatNano(user.referral_balance),
})

/** `GET /user/referrals`: `turnover` is the bond volume the invited user brought. */
export const referralWire = (r: Referral) => ({
  id: Number(r.id),
  name: r.name,
  level: tierOf(r.turnover).level - 1,
  turnover: formatNano(r.brought),
  created_at: Number(r.created_at),
})

export const withdrawQuoteWire = (q: WithdrawQuote) => ({
  token_amount: formatNano(q.tokenAmount),
  fee: formatNano(q.fee),
  net_amount: formatNano(q.net),
  amount_ton: formatNano(q.amountTon),
})

export const withdrawalWire = (row: WithdrawalRow) => ({
  id: Number(row.id),
  from_ref_balance: flag(row.from_ref_balance),
  token_amount: formatNano(row.token_amount),
  fee: formatNano(row.fee),
  net_amount: formatNano(row.net_amount),
  amount_ton: formatNano(row.amount_ton),
  address: row.address,
  // `sending` (the payout may be on its way) and `held` (over a payout limit, for the operator) are still unpaid for the client.
  status: row.status === 'sending' || row.status === 'held' ? ('pending' as const) : row.status,
  created_at: Number(row.created_at),
  // A held sale is `pending` with this mark, which the app shows as under review; an app that does
  // not know the field ignores it. Absent on every other sale.
  ...(row.status === 'held' ? { under_review: true as const } : {}),
  // A sale to an address its user has not proven, waiting its cooling period: not paid before this
  // time (unix seconds), cancellable until then from the bot's message. Absent on every other sale
  // (and once it has joined the payout queue).
  ...(row.status === 'pending' && row.release_at !== null && row.release_at !== undefined ? { release_at: Number(row.release_at) } : {}),
})

/**
 * An operations history row. `description` is English; `description_key` and `description_params`
 * let the app write it in the user's language (both null for a text with no key). `numbers` gives
 * the user's own number of their bond or stake (`bond_number`, `stake_number`), as the lists show them.
 */
export const operationWire = (row: OperationRow, numbers?: OwnNumbers) => {
  const text = operationText(row.type, row.description)
  const params: Record<string, string | number> | null = text ? { ...text.params } : null
  if (params && numbers && text?.key !== 'operation.referral_reward') {
    const bond = params.bond === undefined ? undefined : numbers.mints.get(String(params.bond))
    const stake = params.stake === undefined ? undefined : numbers.stakes.get(String(params.stake))
    if (bond !== undefined) params.bond_number = bond
    if (stake !== undefined) params.stake_number = stake
  }
  return {
    id: Number(row.id),
    type: row.type,
    amount: formatNano(row.amount),
    /** The amount's unit as shown: the token's name (operation-texts.ts's TOKEN_UNIT) or the chain's coin (GRAM). */
    unit: unitName(row.unit),
    /** The balance the row moved; `wallet` for TON to or from the user's wallet, `none` when nothing moved (a stake, a bond from a link). */
    balance: row.balance,
    created_at: Number(row.created_at),
    description: row.description,
    description_key: text?.key ?? null,
    description_params: params,
  }
}

/** A user's bond and stake ids → their own numbers (the first is 1). */
export interface OwnNumbers {
  readonly mints: ReadonlyMap<string, number>
  readonly stakes: ReadonlyMap<string, number>
}

export const linkWire = (row: LinkRow) => ({
  id: Number(row.id),
  amount: formatNano(row.amount),
  days: Number(row.days),
  daily_reward: formatPercent(row.daily_reward),
  count_activations: Number(row.count_activations),
  used_activations: Number(row.used_activations),
  from_ref_balance: flag(row.from_ref_balance),
  from_task_balance: flag(row.from_task_balance),
  is_multilink: flag(row.is_multilink),
  is_for_me: flag(row.is_for_me),
  activation_code: row.activation_code,
  created_at: Number(row.created_at),
  status: row.status,
})

/** `GET /farming/activation-status`. */
export const activationWire = (a: Activation) => {
  switch (a.status) {
    case 'ACTIVE':
      return {
        status: a.status,
        message: `A bond of ${formatNano(a.mint.total_amount)} AXIOM for ${a.mint.tariff_days} days is yours`,
        // The same in the user's language: a key and parameters, as the history's descriptions.
        message_key: 'activation.message.active',
        message_params: { amount: formatNano(a.mint.total_amount), days: Number(a.mint.tariff_days) },
        mint_details: {
          tariff_days: Number(a.mint.tariff_days),
          amount_token: formatNano(a.mint.total_amount),
          amount_ton: formatNano(a.mint.amount_ton),
        },
      }
    case 'REVOKED':
      return { status: a.status, message: 'This link has been revoked', message_key: 'activation.message.revoked', message_params: {}, mint_details: null }
    case 'REACHED':
      return { status: a.status, message: 'All activations of this link are used', message_key: 'activation.message.reached', message_params: {}, mint_details: null }
  }
}

export const planWire = (p: Plan) => ({ days: p.days, is_active: p.isActive, daily_reward: formatPercent(p.dailyReward) })

export const taskWire = ({ task, status }: TaskProgress) => ({
  task_id: task.id,
  status,
  title: task.title,
  title_key: task.titleKey,
  title_params: {},
  kind: task.kind,
  url: task.url,
  reward: formatNano(task.reward),
})

/** `GET /stats/financial`. */
export const statsWire = (s: FinancialStats) => ({
  total_users: s.totalUsers,
  total_locked: formatNano(s.totalLocked),
  active_bonds: s.activeBonds,
  active_stakes: s.activeStakes,
  total_rewards_paid: formatNano(s.totalRewardsPaid),
  total_withdrawn: formatNano(s.totalWithdrawn),
  total_ton_raised: formatNano(s.totalTonRaised),
  collective_bonus: formatPercent(s.collectiveBonus),
  price: formatNano(s.price),
})

/** `GET /price/current-price` and `price_update`: the changes are percents with two decimals. */
export const priceWire = (p: PriceNow) => ({
  price: formatNano(p.price),
  price_change_24h: formatFixed(p.change24h, 2),
  price_change_30d: formatFixed(p.change30d, 2),
})

export const candleWire = (c: CandleNano) => ({
  time: c.time,
  open: formatNano(c.open),
  high: formatNano(c.high),
  low: formatNano(c.low),
  close: formatNano(c.close),
})

export const collectiveBonusWire = (scaled: bigint) => ({ collective_bonus: formatPercent(scaled) })

/** A live event's name and payload: `user:mint` and `user:staking` also carry `mint_id`/`staking_id` and `expected_token` (spec §3). */
export const liveEventWire = (e: LiveEvent): { readonly event: string; readonly data: unknown } => {
  switch (e.event) {
    case 'user:balance':
      return { event: e.event, data: balanceWire(e.user) }
    case 'user:mint': {
      const wire = mintWire(e.mint)
      return { event: e.event, data: { ...wire, mint_id: wire.id, expected_token: wire.amount_token } }
    }
    case 'user:staking': {
      const wire = stakeWire(e.stake)
      return { event: e.event, data: { ...wire, staking_id: wire.id, expected_token: wire.amount_token } }
    }
    case 'global:collective_bonus':
      return { event: e.event, data: collectiveBonusWire(e.collectiveBonus) }
    // chain:payment (the reference backend's): { kind: bond | sale, id, state: seen | withdrawn | sent | paid }.
    case 'chain:payment':
      return { event: e.event, data: { kind: e.payment.what, id: Number(e.payment.id), state: e.payment.state } }
  }
}
