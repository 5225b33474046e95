/**
 * AXIOM_NEW_ADDRESS_DELAY: how long (seconds) a sale to an address its user has not proven with
 * tonProof waits before it is paid, while the bot's message about it offers to cancel it
 * (docs/deploy.md, "Going live on TON").
 */
export const NEW_ADDRESS_DELAY_VAR = 'AXIOM_NEW_ADDRESS_DELAY'

/** Production's delay when the variable is unset: an hour. */
export const DEFAULT_PRODUCTION_NEW_ADDRESS_DELAY_S = 3_600

/** The longest delay taken: 30 days (a longer one reads as a typo, and a sale's tokens would sit reserved for it). */
export const MAX_NEW_ADDRESS_DELAY_S = 30 * 86_400

const isNone = (v: string): boolean => {
  const t = v.trim().toLowerCase()
  return t === '0' || t === 'off'
}

/**
 * The delay from the variable's text: whole seconds, `0` (or `off`) for none. Throws with the
 * variable's name on anything else (`1h`, `-5`, `1.5`, `soon`).
 */
export const newAddressDelayFromEnv = (v: string): number => {
  if (isNone(v)) return 0
  const t = v.trim()
  const n = /^\d{1,9}$/.test(t) ? Number(t) : NaN
  if (!(n > 0) || n > MAX_NEW_ADDRESS_DELAY_S) {
    throw new Error(`${NEW_ADDRESS_DELAY_VAR} must be a whole number of seconds up to ${MAX_NEW_ADDRESS_DELAY_S} (such as 3600), or 0 for none; got ${JSON.stringify(t.slice(0, 40))}`)
  }
  return n
}

/**
 * Production's delay: the variable's, or an hour when unset. Throws (the reason production refuses
 * to start) when it is none or unreadable: a stolen session could then sell to any address at once.
 */
export const productionNewAddressDelay = (env: NodeJS.ProcessEnv): number => {
  const v = env[NEW_ADDRESS_DELAY_VAR]
  if (v === undefined || v.trim() === '') return DEFAULT_PRODUCTION_NEW_ADDRESS_DELAY_S
  if (isNone(v)) {
    throw new Error(
      `${NEW_ADDRESS_DELAY_VAR}=${v.trim()} lets a sale go at once to an address its user never proved: production keeps the cooling period (default ${DEFAULT_PRODUCTION_NEW_ADDRESS_DELAY_S} s; set a number of seconds)`,
    )
  }
  return newAddressDelayFromEnv(v)
}
