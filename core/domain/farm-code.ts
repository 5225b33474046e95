/** The local-storage key that marks a farm code as checked, so that each code is checked once (spec §4). */
export const farmCodeFlagKey = (code: string): string => `farm_code:${code}`

/** Whether `code` is a plausible farm code: 4 to 64 of A-Z a-z 0-9 _ -. */
export const isFarmCode = (code: string): boolean => /^[A-Za-z0-9_-]{4,64}$/.test(code)

/** A farm code from a start-page query (spec §2: `?farm_code=`), if it is a plausible code. */
export const farmCodeFromQuery = (search: string): string | null => {
  const code = new URLSearchParams(search).get('farm_code')?.trim()
  return code && isFarmCode(code) ? code : null
}
