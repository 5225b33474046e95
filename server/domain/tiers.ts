import { tierForTurnover } from '../../core/domain/referral-tiers.ts'
import { NANO, PERCENT_SCALE } from './money.ts'

/** The tier for a turnover in nano; the tier table is in whole tokens. */
export const tierOf = (turnoverNano: bigint) => tierForTurnover(Number(turnoverNano / NANO))

/** The referral bonus of a tier in percent scaled by 1e4. */
export const tierBonusScaled = (turnoverNano: bigint): bigint => BigInt(tierOf(turnoverNano).bonus) * PERCENT_SCALE
