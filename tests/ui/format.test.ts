import { describe, expect, it } from 'vitest'
import { formatCount } from '../../ui/lib/format.ts'

describe('formatCount (users, bonds)', () => {
  it('groups thousands with spaces and shows no decimals', () => {
    expect(formatCount(3)).toBe('3')
    expect(formatCount(0)).toBe('0')
    expect(formatCount(1234567)).toBe('1 234 567')
    expect(formatCount(Number.POSITIVE_INFINITY)).toBe('NaN')
  })
})
