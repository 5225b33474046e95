import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { farmCodeOf, farmingLink, farmStartParam, miniAppLink, parseStartParam, referralCodeOf, referralLink } from '../../../core/index.ts'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'.split('')
const word = (min: number, max: number) => fc.array(fc.constantFrom(...ALPHABET), { minLength: min, maxLength: max }).map((a) => a.join(''))

describe('the start parameter', () => {
  it('reads a referral code, a farm code, or nothing', () => {
    expect(parseStartParam('Xk3_a9Qp')).toEqual({ _tag: 'Referral', code: 'Xk3_a9Qp' })
    expect(parseStartParam('farm_AbC123xyz')).toEqual({ _tag: 'FarmCode', code: 'AbC123xyz' })
    expect(parseStartParam(null)).toEqual({ _tag: 'None' })
    expect(parseStartParam(undefined)).toEqual({ _tag: 'None' })
    expect(parseStartParam('')).toEqual({ _tag: 'None' })
  })

  it('a farm_ parameter is never a referral code, even with a code too short to be a farm code', () => {
    expect(parseStartParam('farm_')).toEqual({ _tag: 'None' })
    expect(parseStartParam('farm_ab')).toEqual({ _tag: 'None' })
    expect(referralCodeOf(parseStartParam('farm_ABCD1234'))).toBeNull()
  })

  it('refuses what a start parameter cannot carry, and a referral code longer than the backend takes', () => {
    expect(parseStartParam('has space')).toEqual({ _tag: 'None' })
    expect(parseStartParam('a/b')).toEqual({ _tag: 'None' })
    expect(parseStartParam('x'.repeat(65))).toEqual({ _tag: 'None' })
    expect(parseStartParam('x'.repeat(64))).toEqual({ _tag: 'Referral', code: 'x'.repeat(64) })
  })

  it('the prefix is case-sensitive, as Telegram passes the parameter unchanged', () => {
    expect(parseStartParam('FARM_ABCD1234')).toEqual({ _tag: 'Referral', code: 'FARM_ABCD1234' })
  })

  it('law: a farm code written as a start parameter reads back as that farm code, and never as a referral', () => {
    fc.assert(
      fc.property(word(4, 64), (code) => {
        const p = parseStartParam(farmStartParam(code))
        return farmCodeOf(p) === code && referralCodeOf(p) === null
      }),
      { numRuns: 500 },
    )
  })

  it('law: any parameter of the alphabet up to 64 characters without the prefix is a referral code, as is', () => {
    fc.assert(
      fc.property(
        word(1, 64).filter((s) => !s.startsWith('farm_')),
        (code) => referralCodeOf(parseStartParam(code)) === code && farmCodeOf(parseStartParam(code)) === null,
      ),
      { numRuns: 500 },
    )
  })

  it('law: whatever the input, the result is at most one of a referral code and a farm code, and a code is part of the input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 80 }), word(0, 80), word(0, 70).map((s) => `farm_${s}`)), (raw) => {
        const p = parseStartParam(raw)
        const ref = referralCodeOf(p)
        const farm = farmCodeOf(p)
        if (ref !== null && farm !== null) return false
        if (ref !== null) return ref === raw && !raw.startsWith('farm_')
        if (farm !== null) return raw === `farm_${farm}`
        return true
      }),
      { numRuns: 1_000 },
    )
  })
})

describe('links into the mini app (spec §9: the referral deep link)', () => {
  const app = { botUsername: 'axiom_bot', appShortName: 'axiom' }

  it('the referral link is the mini app direct link with the ref_code as startapp', () => {
    expect(referralLink(app, 'Xk3_a9Qp')).toBe('https://t.me/axiom_bot/axiom?startapp=Xk3_a9Qp')
  })

  it('a farming link starts the mini app with farm_<code>', () => {
    expect(farmingLink(app, 'AbC123xyz')).toBe('https://t.me/axiom_bot/axiom?startapp=farm_AbC123xyz')
  })

  it('without a parameter the direct link opens the app alone', () => {
    expect(miniAppLink(app)).toBe('https://t.me/axiom_bot/axiom')
  })

  it('law: the startapp value of a referral link parses back to the referral code', () => {
    fc.assert(
      fc.property(word(1, 64).filter((s) => !s.startsWith('farm_')), (code) => {
        const startapp = new URL(referralLink(app, code)).searchParams.get('startapp')
        return referralCodeOf(parseStartParam(startapp)) === code
      }),
      { numRuns: 300 },
    )
  })
})
