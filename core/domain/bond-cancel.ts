import type { RewardRecord } from './entities/mint.ts'
import { truncateDecimal } from './format-amount.ts'
import { rewardAt } from './reward.ts'

/** Cancelling an active bond keeps this share of its amount (the backend's CANCEL_PENALTY). */
export const CANCEL_PENALTY_PERCENT = 10

const NANO_DECIMALS = 9
const NANO = 10n ** BigInt(NANO_DECIMALS)

const toNano = (value: number): bigint => {
  const [int = '0', frac = ''] = truncateDecimal(value, NANO_DECIMALS).split('.')
  return BigInt(int) * NANO + BigInt(frac.padEnd(NANO_DECIMALS, '0'))
}

const fromNano = (nano: bigint): string => {
  const frac = (nano % NANO).toString().padStart(NANO_DECIMALS, '0').replace(/0+$/, '')
  return `${nano / NANO}${frac ? `.${frac}` : ''}`
}

/** What cancelling a bond returns and costs, as exact decimal text (nano-unit precision). */
export interface CancelCost {
  /** Back to the main balance: the amount less the penalty. */
  readonly refund: string
  /** Kept: 10 % of the amount, rounded up to the nano-unit as the backend rounds what a user pays. */
  readonly penalty: string
  /** The reward earned so far, which the backend forfeits. */
  readonly rewardGivenUp: number
}

/**
 * What the backend does on `POST /mint/{id}/cancel` (server/domain/mints.ts cancelMint), worked out
 * before the user confirms: a pending bond was never paid, so nothing moves; an active one returns
 * its amount less a 10 % penalty (rounded up to the nano-unit) and gives up its reward so far.
 */
export const cancelCost = (bond: RewardRecord, nowSeconds: number): CancelCost => {
  if (bond.status !== 'active') return { refund: '0', penalty: '0', rewardGivenUp: 0 }
  const amount = toNano(bond.total_amount)
  const penalty = (amount * BigInt(CANCEL_PENALTY_PERCENT) + 99n) / 100n
  return { refund: fromNano(amount - penalty), penalty: fromNano(penalty), rewardGivenUp: rewardAt(bond, nowSeconds) }
}
