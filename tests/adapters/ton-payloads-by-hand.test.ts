import { Address, beginCell, Cell } from '@ton/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { commentPayload, friendlyAddress, transferAddress } from '../../adapters/ton/ton-comment-payload.ts'

/**
 * The wallet adapters' TON payloads are written by hand (no @ton/core in the app): each is held to
 * what @ton/core writes for the same input, byte for byte.
 */
const byCore = (text: string) => beginCell().storeUint(0, 32).storeStringTail(text).endCell().toBoc().toString('base64')

const arbRaw = fc
  .tuple(fc.constantFrom('0', '-1'), fc.uint8Array({ minLength: 32, maxLength: 32 }))
  .map(([wc, bytes]) => `${wc}:${Buffer.from(bytes).toString('hex')}`)

describe('TON payloads by hand, as @ton/core writes them', () => {
  it('a bond payment comment, an empty one, and one that fills the first cell exactly or by one byte more', () => {
    for (const text of ['axiom:mint:42', '', 'x'.repeat(123), 'x'.repeat(124), 'y'.repeat(123 + 127), 'z'.repeat(123 + 127 + 1)]) {
      expect(commentPayload(text), `${text.length} bytes`).toBe(byCore(text))
    }
  })

  it('law: any text, multi-byte characters and long ones (chains of cells) included, is the same bag of cells', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 400 }), fc.string({ minLength: 200, maxLength: 2000 })), (text) => {
        const boc = commentPayload(text)
        expect(boc).toBe(byCore(text))
        const slice = Cell.fromBase64(boc).beginParse()
        expect(slice.loadUint(32)).toBe(0)
        expect(slice.loadStringTail()).toBe(text)
      }),
    )
  })

  it('law: the address forms are the same as @ton/core’s (non-bounceable, test-flagged on testnet; bounceable for a transfer)', () => {
    fc.assert(
      fc.property(arbRaw, fc.constantFrom('-239', '-3'), (raw, chain) => {
        const a = Address.parse(raw)
        expect(friendlyAddress(raw, chain)).toBe(a.toString({ bounceable: false, testOnly: chain === '-3', urlSafe: true }))
        expect(transferAddress(raw)).toBe(a.toString({ bounceable: true, urlSafe: true }))
        // A friendly address is sent as it is.
        const friendly = a.toString({ bounceable: false, urlSafe: true })
        expect(transferAddress(friendly)).toBe(friendly)
      }),
    )
  })
})
