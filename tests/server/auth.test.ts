import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_JWT_SECRET } from '../../server/main.ts'
import { call, signInitData, startTestServer, type TestServer } from './support.ts'

let t: TestServer
beforeAll(async () => {
  t = await startTestServer()
})
afterAll(() => t.close())

const register = (init_data: unknown) => t.call('POST', '/auth/register', { body: { init_data, ref_code: null } })
const INVALID = { status: 401, body: { msg: 'Invalid WebApp init data' } }

describe('initData attacks', () => {
  it('accepts fresh initData signed with the bot token', async () => {
    expect((await register(signInitData({ id: 2001 }, t.clock.now))).status).toBe(200)
  })

  it('refuses initData signed with another bot token', async () => {
    expect(await register(signInitData({ id: 2001 }, t.clock.now, '1:forged'))).toMatchObject(INVALID)
  })

  it('refuses initData older than 1 hour', async () => {
    expect(await register(signInitData({ id: 2001 }, t.clock.now - 3_601))).toMatchObject(INVALID)
  })

  it('refuses tampered fields (a different user id under the same hash)', async () => {
    const raw = signInitData({ id: 2001 }, t.clock.now)
    const tampered = raw.replace(encodeURIComponent('"id":2001'), encodeURIComponent('"id":2002'))
    expect(tampered).not.toBe(raw)
    expect(await register(tampered)).toMatchObject(INVALID)
  })

  it('refuses a missing hash, garbage and non-strings', async () => {
    const raw = signInitData({ id: 2001 }, t.clock.now)
    expect(await register(raw.replace(/&hash=[0-9a-f]+/, ''))).toMatchObject(INVALID)
    for (const bad of ['', 'garbage', 42, null, { user: 1 }]) expect(await register(bad)).toMatchObject(INVALID)
  })

  it('keeps 52-bit Telegram ids exact', async () => {
    const id = 2 ** 52 - 1
    await register(signInitData({ id }, t.clock.now))
    expect((await t.server.admin.users()).some((u) => u.telegram_id === String(id))).toBe(true)
  })

  it('links the referrer only at first registration and never to oneself', async () => {
    const a = await t.login(2101)
    const code = (await a.call('GET', '/user/me')).body.ref_code as string
    await t.call('POST', '/auth/register', { body: { init_data: signInitData({ id: 2101 }, t.clock.now), ref_code: code } })
    expect((await a.call('GET', '/user/referrals')).body).toEqual({ items: [], total: 0, page: 1, limit: 300 })
    await t.login(2102)
    await t.call('POST', '/auth/register', { body: { init_data: signInitData({ id: 2102 }, t.clock.now), ref_code: code } })
    expect((await a.call('GET', '/user/referrals')).body).toEqual({ items: [], total: 0, page: 1, limit: 300 })
  })
})

describe('bearer tokens', () => {
  it('refuses a missing, malformed, forged or expired token with 401 and a msg', async () => {
    const s = await t.login(2201)
    expect(await t.call('GET', '/user/me')).toMatchObject({ status: 401, body: { msg: 'Not authenticated' } })
    expect(await call(t.url, 'GET', '/user/me', { headers: { authorization: 'Basic abc' } })).toMatchObject({ status: 401 })
    expect(await t.call('GET', '/user/me', { token: 'not.a.jwt' })).toMatchObject({ status: 401, body: { msg: 'Invalid token' } })
    const forged = await new SignJWT({ typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setExpirationTime(t.clock.now + 600)
      .sign(new TextEncoder().encode('wrong-secret'))
    expect((await t.call('GET', '/user/me', { token: forged })).status).toBe(401)
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"1","typ":"access"}').toString('base64url')}.`
    expect((await t.call('GET', '/user/me', { token: none })).status).toBe(401)
    const ghost = await new SignJWT({ typ: 'access', fam: '00000000-0000-4000-8000-000000000000' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('axiom')
      .setAudience('axiom-api')
      .setSubject('999999')
      .setExpirationTime(t.clock.now + 600)
      .sign(new TextEncoder().encode(DEV_JWT_SECRET))
    expect((await t.call('GET', '/user/me', { token: ghost })).status).toBe(401)
    t.clock.advance(16 * 60)
    expect(await s.call('GET', '/user/me')).toMatchObject({ status: 401, body: { msg: 'Token expired' } })
  })
})

describe('refresh tokens', () => {
  it('rotates with the expired access token in its Bearer header, as the app sends it', async () => {
    const s = await t.login(2311)
    t.clock.advance(16 * 60)
    expect(await s.call('GET', '/user/me')).toMatchObject({ status: 401, body: { msg: 'Token expired' } })
    const rotated = await call(t.url, 'POST', '/auth/refresh', { headers: { authorization: `Bearer ${s.token}` }, body: { refresh_token: s.refresh } })
    expect(rotated.status).toBe(200)
    expect((await t.call('GET', '/user/me', { token: rotated.body.token })).status).toBe(200)
  })

  it('rotates; the old token stops working, and its reuse revokes the family', async () => {
    const s = await t.login(2301)
    const first = await t.call('POST', '/auth/refresh', { body: { refresh_token: s.refresh } })
    expect(first.status).toBe(200)
    const reuse = await t.call('POST', '/auth/refresh', { body: { refresh_token: s.refresh } })
    expect(reuse).toMatchObject({ status: 401, body: { msg: 'Refresh token was already used' } })
    // The thief's reuse also kills the legitimate holder's newer token.
    expect((await t.call('POST', '/auth/refresh', { body: { refresh_token: first.body.refresh } })).status).toBe(401)
  })

  it('a revoked family cuts its access tokens off at once, not 15 minutes later; other sessions go on', async () => {
    const victim = await t.login(2303)
    const elsewhere = await t.login(2303)
    const rotated = await t.call('POST', '/auth/refresh', { body: { refresh_token: victim.refresh } })
    const fresh = rotated.body.token as string
    expect((await t.call('GET', '/user/me', { token: fresh })).status).toBe(200)
    expect((await victim.call('GET', '/user/me')).status).toBe(200)
    // The stolen refresh token is presented again: the family is revoked.
    expect((await t.call('POST', '/auth/refresh', { body: { refresh_token: victim.refresh } })).status).toBe(401)
    const revoked = { status: 401, body: { msg: 'Session was revoked' } }
    expect(await victim.call('GET', '/user/me')).toMatchObject(revoked)
    expect(await t.call('GET', '/user/me', { token: fresh })).toMatchObject(revoked)
    expect(await t.call('POST', '/mint/create', { token: fresh, body: { amount: 5, days: 30 } })).toMatchObject(revoked)
    // The same user's other session (its own family) is untouched.
    expect((await elsewhere.call('GET', '/user/me')).status).toBe(200)
  })

  it('an access token without its session family (claim fam) is refused', async () => {
    await t.login(2304)
    const userId = (await t.server.ctx.db.one<{ id: bigint }>('SELECT id FROM users WHERE telegram_id = 2304'))!.id
    const familyless = await new SignJWT({ typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('axiom')
      .setAudience('axiom-api')
      .setSubject(String(userId))
      .setIssuedAt(t.clock.now)
      .setExpirationTime(t.clock.now + 600)
      .sign(new TextEncoder().encode(DEV_JWT_SECRET))
    expect(await t.call('GET', '/user/me', { token: familyless })).toMatchObject({ status: 401, body: { msg: 'Invalid token' } })
  })

  it('refuses unknown and malformed refresh tokens', async () => {
    for (const body of [{ refresh_token: 'nope' }, { refresh: 12 }, {}, { refresh_token: 'x'.repeat(500) }])
      expect((await t.call('POST', '/auth/refresh', { body })).status).toBe(401)
  })

  it('refuses a refresh token of a session older than 30 days', async () => {
    const s = await t.login(2302)
    t.clock.advance(31 * 86_400)
    expect(await t.call('POST', '/auth/refresh', { body: { refresh_token: s.refresh } })).toMatchObject({
      status: 401,
      body: { msg: 'Session expired: sign in again' },
    })
  })
})
