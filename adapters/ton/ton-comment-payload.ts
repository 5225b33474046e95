import { friendlyFromRaw, isRawAddress } from '../../core/domain/address.ts'

/**
 * The TON payloads the wallet adapters build, by hand: a text comment as a message body, and the
 * address forms. @ton/core with the Buffer polyfill and jsSHA (23 KiB gz in the app) did the same
 * for these three calls; tests/adapters/ton-adapters.test.ts holds each to @ton/core's output.
 */

/** The most bytes a cell holds (1023 bits). */
const CELL_BYTES = 127
/** A comment's first cell starts with op 0 (32 bits). */
const OP_BYTES = 4

/** CRC-32C (Castagnoli), as a bag of cells ends with it, little-endian. */
const crc32c = (bytes: Uint8Array): number => {
  let crc = 0xffffffff
  for (const byte of bytes) {
    crc ^= byte
    for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1
  }
  return (crc ^ 0xffffffff) >>> 0
}

const base64 = (bytes: Uint8Array): string => {
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary)
}

/**
 * A text comment as a message body (op 0 + the text, the tail in a chain of cells, as @ton/core's
 * `storeStringTail` writes it), as a base64 bag of cells (one root, CRC-32C, no index), the form
 * wallets show to users.
 */
export const commentPayload = (text: string): string => {
  const utf8 = new TextEncoder().encode(text)
  // The cells' data, root first: op 0 and what fits, then 127 bytes a cell; each refers to the next.
  const cells: Uint8Array[] = []
  const first = utf8.subarray(0, CELL_BYTES - OP_BYTES)
  cells.push(Uint8Array.of(0, 0, 0, 0, ...first))
  for (let at = first.length; at < utf8.length; at += CELL_BYTES) cells.push(utf8.subarray(at, at + CELL_BYTES))
  const count = cells.length
  const sizeBytes = Math.max(1, Math.ceil(count.toString(2).length / 8))
  // Each cell: two descriptor bytes, its data (whole bytes: no completion tag), its reference's index.
  const cellsSize = cells.reduce((n, data, i) => n + 2 + data.length + (i + 1 < count ? sizeBytes : 0), 0)
  const offsetBytes = Math.max(1, Math.ceil(cellsSize.toString(2).length / 8))
  const out: number[] = [0xb5, 0xee, 0x9c, 0x72, 0x40 | sizeBytes, offsetBytes]
  const uint = (n: number, bytes: number) => {
    for (let i = bytes - 1; i >= 0; i--) out.push(Math.floor(n / 256 ** i) % 256)
  }
  uint(count, sizeBytes) // cells
  uint(1, sizeBytes) // roots
  uint(0, sizeBytes) // absent
  uint(cellsSize, offsetBytes)
  uint(0, sizeBytes) // the root's index
  cells.forEach((data, i) => {
    const hasRef = i + 1 < count
    out.push(hasRef ? 1 : 0, data.length * 2, ...data)
    if (hasRef) uint(i + 1, sizeBytes)
  })
  const crc = crc32c(Uint8Array.from(out))
  out.push(crc & 0xff, (crc >>> 8) & 0xff, (crc >>> 16) & 0xff, crc >>> 24)
  return base64(Uint8Array.from(out))
}

/** The user-facing form of a raw address: non-bounceable (a wallet), test-flagged on testnet. */
export const friendlyAddress = (raw: string, chain: string): string => friendlyFromRaw(raw, { bounceable: false, testOnly: chain === '-3' })

/** The address form wallets accept in a transaction: raw addresses become friendly, bounceable ones. */
export const transferAddress = (address: string): string => (isRawAddress(address) ? friendlyFromRaw(address) : address)
