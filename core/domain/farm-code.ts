/** The local-storage key that marks a farm code as checked, so that each code is checked once (spec §4). */
export const farmCodeFlagKey = (code: string): string => `farm_code:${code}`

/** A farm code from a start-page query, if it is a plausible code. */
export const farmCodeFromQuery = (search: string): string | null => {
  const code = new URLSearchParams(search).get('farm_code')?.trim()
  return code && /^[A-Za-z0-9_-]{4,64}$/.test(code) ? code : null
}
