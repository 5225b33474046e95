import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  activePlansByDays,
  authSteps,
  countActiveTasks,
  farmCodeFromQuery,
  isDifferentUser,
  isMaintenanceOff,
  linkOpening,
  nextTaskStep,
  shareMethod,
  shouldRefetchOnVisible,
  versionAtLeast,
} from '../../../core/index.ts'

describe('platform versions (spec §5)', () => {
  it('compares dotted versions numerically', () => {
    expect(versionAtLeast('8.0', '8.0')).toBe(true)
    expect(versionAtLeast('10.0', '9.9')).toBe(true)
    expect(versionAtLeast('6.10', '6.9')).toBe(true)
    expect(versionAtLeast('6.0', '6.1')).toBe(false)
    expect(versionAtLeast(undefined, '6.1')).toBe(false) // the default is 6.0
  })

  it('law: versionAtLeast is a total order on versions', () => {
    const v = fc.tuple(fc.nat(20), fc.nat(20)).map(([a, b]) => `${a}.${b}`)
    fc.assert(
      fc.property(v, v, (a, b) => versionAtLeast(a, b) || versionAtLeast(b, a)),
      { numRuns: 1_000 },
    )
  })

  it('shares natively from 8.0, else through the share link', () => {
    expect(shareMethod('8.0')).toBe('native')
    expect(shareMethod('7.10')).toBe('share-url')
  })

  it('opens only http(s) links, and t.me links natively from 6.1', () => {
    expect(linkOpening('https://t.me/axiom', '6.1')).toBe('platform-native')
    expect(linkOpening('https://t.me/axiom', '6.0')).toBe('external')
    expect(linkOpening('https://example.com', '8.0')).toBe('external')
    expect(linkOpening('javascript:alert(1)', '8.0')).toBe('rejected')
    expect(linkOpening('tg://resolve?domain=x', '8.0')).toBe('rejected')
    expect(linkOpening('not a url', '8.0')).toBe('rejected')
  })
})

describe('other §4 rules', () => {
  it('counts tasks that are not CLAIMED', () => {
    expect(countActiveTasks([{ status: 'NEW' }, { status: 'CLAIMED' }, { status: 'VALIDATED' }])).toBe(2)
  })

  it('walks tasks start → validate → claim', () => {
    expect(['NEW', 'STARTED', 'VALIDATED', 'CLAIMED'].map((s) => nextTaskStep(s as 'NEW'))).toEqual([
      'start',
      'validate',
      'claim',
      null,
    ])
  })

  it('turns maintenance off only on the exact detail', () => {
    expect(isMaintenanceOff('Maintenance mode is disabled')).toBe(true)
    expect(isMaintenanceOff('Maintenance mode is enabled')).toBe(false)
  })

  it('authenticates with the cookie, then the refresh token, then init data', () => {
    expect(authSteps({ authToken: true, refreshToken: true })).toEqual(['use-cookie', 'refresh', 'register'])
    expect(authSteps({ authToken: false, refreshToken: true })).toEqual(['refresh', 'register'])
    expect(authSteps({ authToken: false, refreshToken: false })).toEqual(['register'])
    expect(isDifferentUser('1', '2')).toBe(true)
    expect(isDifferentUser(null, '2')).toBe(false)
  })

  it('refetches on visibility at least 10 s apart', () => {
    expect(shouldRefetchOnVisible(null, 0)).toBe(true)
    expect(shouldRefetchOnVisible(1_000, 10_999)).toBe(false)
    expect(shouldRefetchOnVisible(1_000, 11_000)).toBe(true)
  })

  it('shows only active plans, sorted by days', () => {
    const plans = [
      { days: 90, is_active: true },
      { days: 7, is_active: false },
      { days: 30, is_active: true },
    ]
    expect(activePlansByDays(plans).map((p) => p.days)).toEqual([30, 90])
  })

  it('reads a farm code from the start page query', () => {
    expect(farmCodeFromQuery('?farm_code=AbC123')).toBe('AbC123')
    expect(farmCodeFromQuery('?farm_code=')).toBeNull()
    expect(farmCodeFromQuery('?x=1')).toBeNull()
  })
})
