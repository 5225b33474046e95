import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain .mjs script with no types; it runs before node_modules exists
import { staleReason } from '../../scripts/ensure-installed.mjs'

const lock = {
  packages: {
    '': { name: 'axiom-mini-app' },
    'node_modules/mobx': { version: '7.1.3' },
    'node_modules/a/node_modules/b': { version: '1.0.0' },
    'node_modules/@esbuild/win32-x64': { version: '0.25.0', optional: true },
  },
}
const installed = (over: Record<string, unknown> = {}) => ({
  packages: { 'node_modules/mobx': { version: '7.1.3' }, 'node_modules/a/node_modules/b': { version: '1.0.0' }, ...over },
})

describe('the install check before npm start and npm test', () => {
  it('passes an install that matches the lockfile, ignoring optional packages for other platforms', () => {
    expect(staleReason(lock, installed())).toBeNull()
  })
  it('asks for an install when node_modules is missing', () => {
    expect(staleReason(lock, null)).toBe('node_modules is missing')
  })
  it('asks for an install when a package is missing or at another version', () => {
    expect(staleReason(lock, { packages: { 'node_modules/mobx': { version: '7.1.3' } } })).toBe('b is not installed')
    expect(staleReason(lock, installed({ 'node_modules/mobx': { version: '6.0.0' } }))).toBe('mobx is 6.0.0, the lockfile wants 7.1.3')
  })
})
