import type { PayoutLimits } from '../config/config.ts'
import { requireNano } from '../domain/money.ts'

/** The environment variable of each payout limit (docs/deploy.md, "Going live on TON"). */
export const PAYOUT_LIMIT_VARS = {
  maxSaleNano: 'AXIOM_PAYOUT_MAX_SALE',
  maxUserDayNano: 'AXIOM_PAYOUT_MAX_USER_DAY',
  maxHourNano: 'AXIOM_PAYOUT_MAX_HOUR',
  maxLagS: 'AXIOM_PAYOUT_MAX_LAG_S',
  treasuryReserveNano: 'AXIOM_TREASURY_RESERVE',
} as const satisfies Record<keyof PayoutLimits, string>

const isOff = (v: string): boolean => v.trim().toLowerCase() === 'off'

/** The limits a variable set to `off` turns off (production refuses every `off`). */
export const payoutLimitsOff = (env: NodeJS.ProcessEnv): string[] =>
  Object.values(PAYOUT_LIMIT_VARS).filter((name) => env[name] !== undefined && isOff(env[name]!))

/**
 * The payout limits from the environment: each an amount of TON in decimal (`12.5`, exact to the
 * nanoton, never a float), `AXIOM_PAYOUT_MAX_LAG_S` whole seconds, `AXIOM_TREASURY_RESERVE` may be 0;
 * `off` turns one off; unset, `defaults`' value. Throws with the variable's name on anything else.
 */
export const payoutLimitsFromEnv = (env: NodeJS.ProcessEnv, defaults: PayoutLimits): PayoutLimits => {
  const ton = (key: 'maxSaleNano' | 'maxUserDayNano' | 'maxHourNano' | 'treasuryReserveNano'): bigint | null => {
    const name = PAYOUT_LIMIT_VARS[key]
    const v = env[name]
    if (v === undefined || v.trim() === '') return defaults[key]
    if (isOff(v)) return null
    try {
      return requireNano(name, v.trim(), { allowZero: key === 'treasuryReserveNano' })
    } catch (e) {
      throw new Error(`${(e as Error).message} (an amount of GRAM, such as 100 or 12.5, or off)`)
    }
  }
  const lag = (): number | null => {
    const v = env[PAYOUT_LIMIT_VARS.maxLagS]
    if (v === undefined || v.trim() === '') return defaults.maxLagS
    if (isOff(v)) return null
    const n = /^\d{1,9}$/.test(v.trim()) ? Number(v.trim()) : NaN
    if (!(n > 0)) throw new Error(`${PAYOUT_LIMIT_VARS.maxLagS} must be a positive whole number of seconds, or off`)
    return n
  }
  return {
    maxSaleNano: ton('maxSaleNano'),
    maxUserDayNano: ton('maxUserDayNano'),
    maxHourNano: ton('maxHourNano'),
    maxLagS: lag(),
    treasuryReserveNano: ton('treasuryReserveNano'),
  }
}
