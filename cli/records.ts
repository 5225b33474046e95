import { type Mint, rewardAt, type Stake } from '../core/index.ts'
import { fine, tokens, when } from './output.ts'
import type { Column } from './table.ts'

export const dailyRate = (r: Mint | Stake) => r.daily_reward + r.hold_bonus + r.collective_bonus + r.investment_bonus

/** A bond or stake with the reward shown at `t` (the core's rewardAt). */
export const withReward = <R extends Mint | Stake>(r: R, t: number) => ({ ...r, reward: rewardAt(r, t) })

export const recordColumns = <R extends Mint | Stake>(t: number): ReadonlyArray<Column<R>> => [
  { header: 'ID', value: (r) => r.id, align: 'right' },
  { header: 'STATUS', value: (r) => r.status },
  { header: 'AMOUNT', value: (r) => tokens(r.amount_token), align: 'right' },
  { header: 'DAYS', value: (r) => String(r.tariff_days), align: 'right' },
  { header: '% / DAY', value: (r) => formatRate(dailyRate(r)), align: 'right' },
  { header: 'REWARD', value: (r) => fine(rewardAt(r, t)), align: 'right' },
  { header: 'MAX', value: (r) => tokens(r.max_reward), align: 'right' },
  { header: 'CREATED', value: (r) => when(r.created_at) },
]
export const formatRate = (v: number) => String(Math.round(v * 1e4) / 1e4)

