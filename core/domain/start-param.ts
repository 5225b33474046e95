import { isFarmCode } from './farm-code.ts'

/**
 * What the app was launched with (Telegram's `tgWebAppStartParam`, `start_param` in the init data):
 * a referral code, a farming link's code as `farm_<code>`, or nothing usable.
 */
export type StartParam =
  | { readonly _tag: 'Referral'; readonly code: string }
  | { readonly _tag: 'FarmCode'; readonly code: string }
  | { readonly _tag: 'None' }

/** The prefix that marks a start parameter as a farming link's code. */
export const FARM_START_PREFIX = 'farm_'

/** A referral code as the backend accepts it (`ref_code`, up to 64 characters) and a start parameter can carry it. */
const REFERRAL_CODE = /^[A-Za-z0-9_-]{1,64}$/

const NONE: StartParam = { _tag: 'None' }

/**
 * Reads the start parameter. `farm_<code>` is a farm code, and never a referral code, even when the
 * code after the prefix is not a plausible one; anything else of the start parameter's alphabet is
 * a referral code.
 */
export const parseStartParam = (raw: string | null | undefined): StartParam => {
  if (!raw) return NONE
  if (raw.startsWith(FARM_START_PREFIX)) {
    const code = raw.slice(FARM_START_PREFIX.length)
    return isFarmCode(code) ? { _tag: 'FarmCode', code } : NONE
  }
  return REFERRAL_CODE.test(raw) ? { _tag: 'Referral', code: raw } : NONE
}

/** The start parameter that carries a farm code: `farm_<code>`. */
export const farmStartParam = (code: string): string => `${FARM_START_PREFIX}${code}`

/** The referral code to register with (`ref_code`), or null. */
export const referralCodeOf = (p: StartParam): string | null => (p._tag === 'Referral' ? p.code : null)

/** The farm code to check, or null. */
export const farmCodeOf = (p: StartParam): string | null => (p._tag === 'FarmCode' ? p.code : null)
