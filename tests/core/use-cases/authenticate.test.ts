import { describe, expect, it } from 'vitest'
import { RequestRejected, STORAGE_KEYS } from '../../../core/index.ts'
import { authenticate } from '../../../core/use-cases/authenticate.ts'
import { FakeAxiomApi } from '../fakes/fake-axiom-api.ts'
import { FakePlatform, launchData } from '../fakes/fake-platform.ts'
import { MemoryKeyValueStore, MemorySessionStore } from '../fakes/memory-stores.ts'
import { failure, succeed } from '../fakes/run.ts'

const setup = (o: { tokens?: { auth_token?: string; refresh_token?: string }; storedUser?: string; startParam?: string | null } = {}) => {
  const api = new FakeAxiomApi()
  const session = new MemorySessionStore(o.tokens ?? {})
  const storage = new MemoryKeyValueStore(o.storedUser ? { [STORAGE_KEYS.user]: o.storedUser, lastRefCount: '3' } : {})
  const platform = new FakePlatform(launchData({ userId: '42', startParam: o.startParam ?? null }))
  return { api, session, storage, platform, signIn: () => authenticate({ api, session, storage, platform }) }
}

describe('authenticate', () => {
  it('uses the auth_token cookie when present, with no call', async () => {
    const s = setup({ tokens: { auth_token: 'cookie-token', refresh_token: 'r' }, storedUser: '42' })

    expect(await succeed(s.signIn())).toBe('authenticated')
    expect(s.api.calls).toEqual([])
    expect(s.session.get('auth_token')).toBe('cookie-token')
  })

  it('otherwise refreshes, and keeps the new tokens', async () => {
    const s = setup({ tokens: { refresh_token: 'old-refresh' } })
    s.api.refreshTokens.set('old-refresh', { token: 'new-token', refresh: 'new-refresh' })

    expect(await succeed(s.signIn())).toBe('authenticated')
    expect(s.api.calls.map((c) => c.method)).toEqual(['refresh'])
    expect(s.session.get('auth_token')).toBe('new-token')
    expect(s.session.get('refresh_token')).toBe('new-refresh')
  })

  it('when the refresh fails, removes the refresh token and registers with the init data and the start parameter', async () => {
    const s = setup({ tokens: { refresh_token: 'revoked' }, startParam: 'FRIEND7' })

    expect(await succeed(s.signIn())).toBe('authenticated')
    expect(s.api.calls.map((c) => c.method)).toEqual(['refresh', 'register'])
    expect(s.api.callsTo('register')[0]!.input).toEqual({ init_data: launchData().initData, ref_code: 'FRIEND7' })
    expect(s.session.get('auth_token')).toBe('registered-token')
    expect(s.session.get('refresh_token')).toBe('registered-refresh')
  })

  it('registers straight away with no tokens at all, with a null ref_code when there is no start parameter', async () => {
    const s = setup()

    await succeed(s.signIn())

    expect(s.api.calls.map((c) => c.method)).toEqual(['register'])
    expect(s.api.callsTo('register')[0]!.input).toMatchObject({ ref_code: null })
  })

  it.each([
    ['a farm code', 'farm_K7Q2M9XW4P'],
    ['a broken farm code', 'farm_'],
    ['what a start parameter cannot carry', 'not a code'],
  ])('registers with a null ref_code when the start parameter is %s', async (_, startParam) => {
    const s = setup({ startParam })

    await succeed(s.signIn())

    expect(s.api.callsTo('register')[0]!.input).toEqual({ init_data: launchData().initData, ref_code: null })
  })

  it('remembers the platform user', async () => {
    const s = setup()

    await succeed(s.signIn())

    expect(s.storage.get(STORAGE_KEYS.user)).toBe('42')
  })

  it('a different platform user than the stored one wipes storage and cookies and reloads, with no call', async () => {
    const s = setup({ tokens: { auth_token: 'someone-else', refresh_token: 'someone-else' }, storedUser: '7' })

    expect(await succeed(s.signIn())).toBe('reloading')
    expect(s.storage.size).toBe(0)
    expect(s.session.get('auth_token')).toBeNull()
    expect(s.session.get('refresh_token')).toBeNull()
    expect(s.platform.reloads).toBe(1)
    expect(s.api.calls).toEqual([])
  })

  it('fails with OutsidePlatform when opened outside the platform', async () => {
    const s = setup()
    s.platform.setLaunch(null)

    expect(await failure(s.signIn())).toMatchObject({ _tag: 'OutsidePlatform' })
    expect(s.api.calls).toEqual([])
  })

  it('fails with the API error when registration is refused', async () => {
    const s = setup()
    s.api.failWith('register', new RequestRejected({ status: 400, msg: 'Not a member' }))

    expect(await failure(s.signIn())).toMatchObject({ _tag: 'RequestRejected', msg: 'Not a member' })
    expect(s.session.get('auth_token')).toBeNull()
  })
})
