import {
  ADDRESS_FLAG_BOUNCEABLE,
  ADDRESS_FLAG_NON_BOUNCEABLE,
  ADDRESS_FLAG_TEST,
  SHORT_ADDRESS_HEAD,
  SHORT_ADDRESS_TAIL,
} from './constants.ts'

/** The raw address form (spec §5): exactly one colon, workchain 0 or -1, a 64-character hex part. */
export const isRawAddress = (s: string): boolean => /^(0|-1):[0-9a-fA-F]{64}$/.test(s)

/** The address as its first 4 and last 4 characters (spec §9). */
export const shortAddress = (address: string): string =>
  address.length <= SHORT_ADDRESS_HEAD + SHORT_ADDRESS_TAIL
    ? address
    : `${address.slice(0, SHORT_ADDRESS_HEAD)}…${address.slice(-SHORT_ADDRESS_TAIL)}`

const crc16 = (bytes: Uint8Array): number => {
  let crc = 0
  for (const byte of bytes) {
    crc ^= byte << 8
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return crc
}

const decodeBase64 = (s: string): Uint8Array | null => {
  const std = s.replace(/-/g, '+').replace(/_/g, '/')
  if (!/^[A-Za-z0-9+/]{48}$/.test(std)) return null
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
  const out = new Uint8Array(36)
  let bits = 0
  let value = 0
  let n = 0
  for (const ch of std) {
    value = (value << 6) | alphabet.indexOf(ch)
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[n++] = (value >> bits) & 0xff
    }
  }
  return out
}

/**
 * The friendly (user-facing) address form: 48 base64 or base64url characters holding a tag byte
 * (0x11 bounceable or 0x51 non-bounceable, optionally with the 0x80 test flag), a workchain of
 * 0 or -1, the 32-byte hash and a CRC16 checksum.
 */
export const isFriendlyAddress = (s: string): boolean => {
  const bytes = decodeBase64(s)
  if (!bytes) return false
  const tag = bytes[0]! & ~ADDRESS_FLAG_TEST
  if (tag !== ADDRESS_FLAG_BOUNCEABLE && tag !== ADDRESS_FLAG_NON_BOUNCEABLE) return false
  if (bytes[1] !== 0x00 && bytes[1] !== 0xff) return false
  return crc16(bytes.subarray(0, 34)) === ((bytes[34]! << 8) | bytes[35]!)
}

const encodeBase64Url = (bytes: Uint8Array): string => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
  let out = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!
    out += alphabet[(n >> 18) & 63]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! + alphabet[n & 63]!
  }
  return out
}

/**
 * A raw address (`0:<64 hex>`) in the friendly form, base64url: by default the one TON tools send,
 * bounceable and not test-only (what @ton/core's `Address.toString({ urlSafe: true })` writes);
 * `bounceable: false` is a wallet's user-facing form, `testOnly` flags it for testnet.
 */
export const friendlyFromRaw = (raw: string, form: { readonly bounceable?: boolean; readonly testOnly?: boolean } = {}): string => {
  if (!isRawAddress(raw)) throw new Error(`not a raw address: ${raw}`)
  const [wc, hex] = raw.split(':') as [string, string]
  const bytes = new Uint8Array(36)
  bytes[0] = (form.bounceable === false ? ADDRESS_FLAG_NON_BOUNCEABLE : ADDRESS_FLAG_BOUNCEABLE) | (form.testOnly ? ADDRESS_FLAG_TEST : 0)
  bytes[1] = wc === '-1' ? 0xff : 0x00
  for (let i = 0; i < 32; i++) bytes[2 + i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16)
  const crc = crc16(bytes.subarray(0, 34))
  bytes[34] = crc >> 8
  bytes[35] = crc & 0xff
  return encodeBase64Url(bytes)
}

/** A TON address in raw or friendly form. */
export const isTonAddress = (s: string): boolean => isRawAddress(s.trim()) || isFriendlyAddress(s.trim())
