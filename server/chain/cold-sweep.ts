import { Address } from '@ton/core'
import { formatNano, requireNano } from '../domain/money.ts'
import type { TonNetwork } from './treasury.ts'
import { COIN } from '../../core/domain/constants.ts'

/**
 * The hot float and the cold sweep (docs/deploy.md, "Going live on TON"): the treasury keeps
 * AXIOM_TREASURY_FLOAT hot, to pay sales and refunds; what it holds beyond the float plus
 * SWEEP_MARGIN_NANO goes to AXIOM_COLD_ADDRESS, a wallet whose key the product never holds. A sweep is
 * an outgoing payment of kind `sweep` (server/chain/payouts.ts): its seqno, valid_until, message hash
 * and BOC are stored before it is sent, as a sale's or a refund's.
 */
export interface ColdSweep {
  /** The cold wallet, raw form (`0:…`). */
  readonly coldAddress: string
  /** What the treasury keeps hot, nanoton (never below the reserve). */
  readonly floatNano: bigint
}

/**
 * How far above the float the treasury must hold before a sweep goes (1 TON): no sweep moves less
 * than about 1 TON, so the fee of a sweep (about 0.004 TON) is never paid for a crumb, and the
 * deposits of a quiet day do not each start one.
 */
export const SWEEP_MARGIN_NANO = 1_000_000_000n
/**
 * What a sweep leaves on top of the float for its own message's fee (0.01 TON, the refund fee's
 * estimate; a W5 treasury pays about 0.004 TON to send one message): the treasury keeps at least the float.
 */
export const SWEEP_FEE_NANO = 10_000_000n

export const sweepComment = (n: bigint | number): string => `axiom:sweep:${n}`

/**
 * What a sweep sends from a treasury that holds `balanceNano` and owes nothing queued: everything
 * over the float but SWEEP_FEE_NANO, once the balance reaches the float plus SWEEP_MARGIN_NANO; else
 * null (nothing moves at or below float + margin).
 */
export const sweepAmount = (balanceNano: bigint, floatNano: bigint): bigint | null =>
  balanceNano >= floatNano + SWEEP_MARGIN_NANO ? balanceNano - floatNano - SWEEP_FEE_NANO : null

const ton = (nano: bigint) => `${formatNano(nano)} ${COIN}`

/**
 * Production's cold sweep from AXIOM_COLD_ADDRESS and AXIOM_TREASURY_FLOAT, or null (none). Throws a
 * one-line reason for production to refuse with:
 * - AXIOM_COLD_ADDRESS unset on mainnet (a testnet deployment may keep all in the hot wallet), not a
 *   TON address, flagged for the other network, or the treasury itself;
 * - AXIOM_TREASURY_FLOAT not an amount of TON, under the reserve, or set without a cold address.
 * The float defaults to the reserve plus the hour's payout limit: an hour of payouts at their limit
 * leaves the treasury at its reserve.
 */
export const coldSweepFromEnv = (
  env: NodeJS.ProcessEnv,
  o: { readonly network: TonNetwork; readonly treasury: Address; readonly reserveNano: bigint | null; readonly maxHourNano: bigint | null },
): ColdSweep | null => {
  const coldText = env.AXIOM_COLD_ADDRESS?.trim()
  const floatText = env.AXIOM_TREASURY_FLOAT?.trim()
  if (!coldText) {
    if (floatText) throw new Error('AXIOM_TREASURY_FLOAT is set without AXIOM_COLD_ADDRESS: nothing would be swept')
    if (o.network === 'mainnet') {
      throw new Error("AXIOM_COLD_ADDRESS is not set (the cold wallet the treasury's excess over AXIOM_TREASURY_FLOAT goes to; required on mainnet)")
    }
    return null
  }
  let cold: Address
  let testOnly: boolean | null = null
  try {
    if (Address.isFriendly(coldText)) {
      const f = Address.parseFriendly(coldText)
      cold = f.address
      testOnly = f.isTestOnly
    } else cold = Address.parseRaw(coldText)
  } catch {
    throw new Error(`AXIOM_COLD_ADDRESS ${coldText} is not a TON address`)
  }
  if (testOnly !== null && testOnly !== (o.network === 'testnet')) {
    throw new Error(`AXIOM_COLD_ADDRESS is a ${testOnly ? 'testnet' : 'mainnet'} address but AXIOM_TON_NETWORK is ${o.network}`)
  }
  if (cold.equals(o.treasury)) throw new Error('AXIOM_COLD_ADDRESS is the treasury itself: the cold wallet must be another, whose key the backend never holds')
  const reserve = o.reserveNano ?? 0n
  let floatNano = reserve + (o.maxHourNano ?? 0n)
  if (floatText) {
    try {
      floatNano = requireNano('AXIOM_TREASURY_FLOAT', floatText, { allowZero: true })
    } catch (e) {
      throw new Error(`${(e as Error).message} (an amount of GRAM, such as 1000 or 250.5)`)
    }
  }
  if (floatNano < reserve) {
    throw new Error(`AXIOM_TREASURY_FLOAT (${ton(floatNano)}) is under AXIOM_TREASURY_RESERVE (${ton(reserve)}): the float must cover the reserve`)
  }
  return { coldAddress: cold.toRawString(), floatNano }
}
