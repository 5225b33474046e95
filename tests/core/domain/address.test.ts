import fc from 'fast-check'
import { Address } from '@ton/core'
import { describe, expect, it } from 'vitest'
import { friendlyFromRaw, isFriendlyAddress, isRawAddress, isTonAddress, shortAddress } from '../../../core/index.ts'

const hex64 = fc.stringMatching(/^[0-9a-fA-F]{64}$/)

describe('isRawAddress (spec §5)', () => {
  it('accepts exactly: one colon, workchain 0 or -1, 64 hex characters', () => {
    fc.assert(
      fc.property(fc.constantFrom('0', '-1'), hex64, (wc, hex) => isRawAddress(`${wc}:${hex}`)),
      { numRuns: 1_000 },
    )
  })

  it('law: rejects every other workchain, length, alphabet or colon count', () => {
    const bad = fc.oneof(
      fc.tuple(fc.integer({ min: -1000, max: 1000 }).filter((w) => w !== 0 && w !== -1), hex64).map(([w, h]) => `${w}:${h}`),
      fc.tuple(fc.constantFrom('0', '-1'), fc.stringMatching(/^[0-9a-f]{0,80}$/).filter((h) => h.length !== 64)).map(([w, h]) => `${w}:${h}`),
      fc.tuple(fc.constantFrom('0', '-1'), hex64, fc.integer({ min: 0, max: 63 }), fc.constantFrom('g', 'z', ':', ' ', 'G')).map(
        ([w, h, i, c]) => `${w}:${h.slice(0, i)}${c}${h.slice(i + 1)}`,
      ),
      fc.tuple(fc.constantFrom('0', '-1'), hex64).map(([w, h]) => `${w}::${h}`),
      hex64,
    )
    fc.assert(fc.property(bad, (s) => !isRawAddress(s)), { numRuns: 1_000 })
  })
})

describe('friendly addresses', () => {
  const arbAddress = fc.tuple(fc.constantFrom(0, -1), fc.uint8Array({ minLength: 32, maxLength: 32 }))
  const flags = fc.record({ bounceable: fc.boolean(), testOnly: fc.boolean(), urlSafe: fc.boolean() })

  it("law: accepts every friendly form @ton/core writes (bounceable or not, test flag, base64 or base64url)", () => {
    fc.assert(
      fc.property(arbAddress, flags, ([wc, hash], f) => {
        const friendly = new Address(wc, Buffer.from(hash)).toString(f)
        return isFriendlyAddress(friendly) && isTonAddress(friendly)
      }),
      { numRuns: 1_000 },
    )
  })

  it('law: rejects a friendly form with any one character changed (the checksum catches it)', () => {
    fc.assert(
      fc.property(arbAddress, fc.integer({ min: 0, max: 47 }), ([wc, hash], i) => {
        const friendly = new Address(wc, Buffer.from(hash)).toString({ urlSafe: true })
        const c = friendly[i] === 'A' ? 'B' : 'A'
        const changed = friendly.slice(0, i) + c + friendly.slice(i + 1)
        let parses = true
        try {
          Address.parseFriendly(changed)
        } catch {
          parses = false
        }
        return isFriendlyAddress(changed) === parses
      }),
      { numRuns: 1_000 },
    )
    expect(isTonAddress('hello')).toBe(false)
  })
})

describe('friendlyFromRaw', () => {
  it("law: writes what @ton/core writes for the same address (bounceable, base64url), whatever the hex case", () => {
    fc.assert(
      fc.property(fc.constantFrom(0, -1), hex64, (wc, hex) => {
        const friendly = friendlyFromRaw(`${wc}:${hex}`)
        return friendly === Address.parseRaw(`${wc}:${hex}`).toString({ urlSafe: true }) && isFriendlyAddress(friendly)
      }),
      { numRuns: 1_000 },
    )
  })

  it('refuses what is not a raw address', () => {
    expect(() => friendlyFromRaw('EQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG')).toThrow('not a raw address')
  })
})

describe('shortAddress (spec §9)', () => {
  it('shows the first 4 and last 4 characters', () => {
    expect(shortAddress('EQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG')).toBe('EQBv…ggGG')
    expect(shortAddress('short')).toBe('short')
  })
})
