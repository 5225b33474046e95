import { SHORT_ADDRESS_HEAD, SHORT_ADDRESS_TAIL } from './constants.ts'

/** The raw address form (spec §5): exactly one colon, workchain 0 or -1, a 64-character hex part. */
export const isRawAddress = (s: string): boolean => /^(0|-1):[0-9a-fA-F]{64}$/.test(s)

/** The address as its first 4 and last 4 characters (spec §9). */
export const shortAddress = (address: string): string =>
  address.length <= SHORT_ADDRESS_HEAD + SHORT_ADDRESS_TAIL
    ? address
    : `${address.slice(0, SHORT_ADDRESS_HEAD)}…${address.slice(-SHORT_ADDRESS_TAIL)}`
