import { createHmac } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { DEV_BOT_TOKEN, DEV_JWT_SECRET, entryOptionsFromEnv } from '../../server/main.ts'
import { initDataHash, signFields, someSignature, toQuery, type InitDataFields } from '../support/init-data.ts'
import { jsonHeaders, rawRequest, requestText, type RawReply } from './raw-http.ts'
import { serversClosedAfterAll, T0, type TestServer } from './support.ts'

/**
 * Sessions from the outside: hand-written HTTP against the real backend on a random port, with init
 * data signed by hand (tests/support/init-data.ts) and JWTs built by hand with node:crypto, not with
 * the library the backend signs with.
 */

const server = serversClosedAfterAll()
let t: TestServer
beforeAll(async () => {
  t = await server()
})

const post = (s: TestServer, path: string, body: unknown, token?: string): Promise<RawReply> => {
  const text = JSON.stringify(body)
  return rawRequest(s.server.port, requestText({ method: 'POST', path: `/api${path}`, port: s.server.port, headers: jsonHeaders(text, token), body: text }))
}
const get = (s: TestServer, path: string, token?: string): Promise<RawReply> =>
  rawRequest(
    s.server.port,
    requestText({ method: 'GET', path: `/api${path}`, port: s.server.port, headers: token ? [['Authorization', `Bearer ${token}`]] : [] }),
  )

interface Pair {
  readonly token: string
  readonly refresh: string
}

/** A user's initData at `authDate`, signed by hand as Telegram signs it. */
const initData = (telegramId: number, authDate: number): string =>
  signFields({ query_id: `q${telegramId}`, user: JSON.stringify({ id: telegramId, first_name: 'Session' }), auth_date: String(authDate), signature: someSignature() }, DEV_BOT_TOKEN)

const signIn = async (s: TestServer, telegramId: number): Promise<Pair> => {
  const r = await post(s, '/auth/register', { init_data: initData(telegramId, s.clock.now), ref_code: null })
  expect(r.status, r.text).toBe(200)
  return r.json as Pair
}

const refresh = (s: TestServer, refreshToken: string) => post(s, '/auth/refresh', { refresh_token: refreshToken })
const logout = (s: TestServer, pair: Pair, refreshToken = pair.refresh) => post(s, '/auth/logout', { refresh_token: refreshToken }, pair.token)

/** A JWT's payload, read by hand. */
const claimsOf = (jwt: string): Record<string, unknown> => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8'))

/** An HS256 JWT built by hand: base64url(header).base64url(payload), HMAC-SHA256 over both with `secret`. */
const handJwt = (payload: Record<string, unknown>, secret = DEV_JWT_SECRET): string => {
  const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url')
  const signed = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(payload)}`
  return `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`
}

const REVOKED = { status: 401, json: { msg: 'Session was revoked' } }

describe('POST /api/auth/logout', () => {
  it('ends the session: its access token stops at once, its refresh token too; a second logout is 401; other sessions go on', async () => {
    const a = await signIn(t, 9101)
    const other = await signIn(t, 9101)
    // Seen (and kept as valid) by the backend before the logout.
    expect((await get(t, '/user/me', a.token)).status).toBe(200)
    const out = await logout(t, a)
    expect(out.status, out.text).toBe(200)
    expect(out.json).toEqual({})
    expect(await get(t, '/user/me', a.token)).toMatchObject(REVOKED)
    expect((await refresh(t, a.refresh)).status).toBe(401)
    expect(await logout(t, a)).toMatchObject(REVOKED)
    expect((await get(t, '/user/me', other.token)).status).toBe(200)
    expect((await refresh(t, other.refresh)).status).toBe(200)
  })

  it('ends a rotated session with its current refresh token, and cuts the access tokens minted before', async () => {
    const a = await signIn(t, 9102)
    const rotated = (await refresh(t, a.refresh)).json as Pair
    expect((await logout(t, rotated)).status).toBe(200)
    expect(await get(t, '/user/me', a.token)).toMatchObject(REVOKED)
    expect(await get(t, '/user/me', rotated.token)).toMatchObject(REVOKED)
    expect((await refresh(t, rotated.refresh)).status).toBe(401)
  })

  it('needs the bearer token and a refresh token of that same session; a refused logout ends nothing', async () => {
    const a = await signIn(t, 9103)
    const b = await signIn(t, 9103)
    const stranger = await signIn(t, 9104)
    const bad = { status: 401, json: { msg: 'Invalid refresh token' } }
    expect(await logout(t, a, b.refresh)).toMatchObject(bad)
    expect(await logout(t, a, stranger.refresh)).toMatchObject(bad)
    expect(await logout(t, a, 'not-a-token')).toMatchObject(bad)
    expect(await post(t, '/auth/logout', {}, a.token)).toMatchObject(bad)
    expect(await post(t, '/auth/logout', { refresh_token: a.refresh })).toMatchObject({ status: 401, json: { msg: 'Not authenticated' } })
    for (const p of [a, b, stranger]) {
      expect((await get(t, '/user/me', p.token)).status).toBe(200)
      expect((await refresh(t, p.refresh)).status).toBe(200)
    }
  })
})

describe('absolute session lifetime', () => {
  it('a session refreshed every week still ends 30 days after its sign-in, and no access token outlives it', async () => {
    const s = await server()
    let pair = await signIn(s, 9201)
    const startedAt = s.clock.now
    for (let week = 1; week <= 4; week++) {
      s.clock.advance(7 * 86_400)
      const r = await refresh(s, pair.refresh)
      expect(r.status, r.text).toBe(200)
      pair = r.json as Pair
    }
    // Two days before the end (day 28): the refresh works, and its access token ends at the session's end at the latest.
    s.clock.advance(2 * 86_400 - 600)
    const last = await refresh(s, pair.refresh)
    expect(last.status).toBe(200)
    pair = last.json as Pair
    expect(claimsOf(pair.token).exp).toBe(startedAt + 30 * 86_400)
    // Day 30, plus a second: the refresh token was issued 10 minutes ago, yet the session is over.
    s.clock.advance(601)
    expect(await refresh(s, pair.refresh)).toMatchObject({ status: 401, json: { msg: 'Session expired: sign in again' } })
    expect((await get(s, '/user/me', pair.token)).status).toBe(401)
    // A new sign-in is a new session.
    expect((await refresh(s, (await signIn(s, 9201)).refresh)).status).toBe(200)
  })

  it('AXIOM_SESSION_MAX_AGE_S sets it (the entry reads the environment)', async () => {
    const options = await entryOptionsFromEnv({ AXIOM_SESSION_MAX_AGE_S: '3600' })
    expect(options.sessionMaxAgeS).toBe(3600)
    const s = await server({ sessionMaxAgeS: options.sessionMaxAgeS! })
    const first = await signIn(s, 9202)
    s.clock.advance(1_800)
    const second = (await refresh(s, first.refresh)).json as Pair
    s.clock.advance(1_800)
    expect(await refresh(s, second.refresh)).toMatchObject({ status: 401, json: { msg: 'Session expired: sign in again' } })
    for (const bad of ['0', '-5', 'soon', '1.5']) await expect(entryOptionsFromEnv({ AXIOM_SESSION_MAX_AGE_S: bad })).rejects.toThrow(/AXIOM_SESSION_MAX_AGE_S/)
  })

  it('a refresh token still expires on its own when the session may outlive it', async () => {
    const s = await server({ sessionMaxAgeS: 90 * 86_400 })
    const pair = await signIn(s, 9203)
    s.clock.advance(31 * 86_400)
    expect(await refresh(s, pair.refresh)).toMatchObject({ status: 401, json: { msg: 'Refresh token expired' } })
  })
})

describe('iss and aud of access tokens', () => {
  it('every access token names its issuer and audience', async () => {
    const pair = await signIn(t, 9301)
    expect(claimsOf(pair.token)).toMatchObject({ iss: 'axiom', aud: 'axiom-api', typ: 'access' })
    const rotated = (await refresh(t, pair.refresh)).json as Pair
    expect(claimsOf(rotated.token)).toMatchObject({ iss: 'axiom', aud: 'axiom-api' })
  })

  it('a token signed with the right secret but a wrong or missing iss or aud is refused', async () => {
    const pair = await signIn(t, 9302)
    const { sub, fam } = claimsOf(pair.token)
    const claims = { typ: 'access', sub, fam, iat: t.clock.now, exp: t.clock.now + 600, iss: 'axiom', aud: 'axiom-api' }
    // The hand-made token itself is right: with the right claims it is accepted.
    expect((await get(t, '/user/me', handJwt(claims))).status).toBe(200)
    const { iss: _iss, ...noIss } = claims
    const { aud: _aud, ...noAud } = claims
    for (const wrong of [
      { ...claims, iss: 'someone-else' },
      { ...claims, aud: 'another-api' },
      { ...claims, aud: ['another-api'] },
      noIss,
      noAud,
    ])
      expect(await get(t, '/user/me', handJwt(wrong))).toMatchObject({ status: 401, json: { msg: 'Invalid token' } })
    // And with another secret, the right claims are refused too.
    expect((await get(t, '/user/me', handJwt(claims, 'x'.repeat(43)))).status).toBe(401)
  })
})

describe('init data age and hash', () => {
  const register = (s: TestServer, init_data: string) => post(s, '/auth/register', { init_data, ref_code: null })
  const INVALID = { status: 401, json: { msg: 'Invalid WebApp init data' } }

  it('is accepted 59 minutes after its auth_date and refused 61 minutes after', async () => {
    expect((await register(t, initData(9401, t.clock.now - 59 * 60))).status).toBe(200)
    expect(await register(t, initData(9402, t.clock.now - 61 * 60))).toMatchObject(INVALID)
  })

  it('AXIOM_INIT_DATA_MAX_AGE_S sets the age (the entry reads the environment)', async () => {
    const options = await entryOptionsFromEnv({ AXIOM_INIT_DATA_MAX_AGE_S: '120' })
    expect(options.initDataMaxAgeS).toBe(120)
    const s = await server({ initDataMaxAgeS: options.initDataMaxAgeS! })
    expect((await register(s, initData(9403, s.clock.now - 119))).status).toBe(200)
    expect(await register(s, initData(9404, s.clock.now - 121))).toMatchObject(INVALID)
    await expect(entryOptionsFromEnv({ AXIOM_INIT_DATA_MAX_AGE_S: '0' })).rejects.toThrow(/AXIOM_INIT_DATA_MAX_AGE_S/)
  })

  it('refuses a hash of the wrong length or form before comparing, and a field sent twice', async () => {
    const fields: InitDataFields = { query_id: 'q9405', user: JSON.stringify({ id: 9405 }), auth_date: String(t.clock.now) }
    const hash = initDataHash(fields, DEV_BOT_TOKEN)
    const withHash = (h: string) => `${toQuery(fields)}&hash=${h}`
    for (const bad of [hash.slice(0, 63), `${hash}0`, `${hash}${hash}`, hash.toUpperCase(), '', `${hash.slice(0, 62)}zz`])
      expect(await register(t, withHash(bad))).toMatchObject(INVALID)
    // Two hashes, the right one among them.
    expect(await register(t, `${withHash(hash)}&hash=${hash}`)).toMatchObject(INVALID)
    // A field sent twice, hashed by hand over both of its lines as a naive check would.
    const secret = createHmac('sha256', 'WebAppData').update(DEV_BOT_TOKEN).digest()
    const lines = [`auth_date=${t.clock.now}`, 'query_id=q9405', 'query_id=q9406', `user=${fields.user}`].join('\n')
    const twice = `${toQuery(fields)}&query_id=q9406&hash=${createHmac('sha256', secret).update(lines).digest('hex')}`
    expect(await register(t, twice)).toMatchObject(INVALID)
    // The same fields, once each, with their right hash, are accepted.
    expect((await register(t, withHash(hash))).status).toBe(200)
  })
})

describe('the periodic pass prunes refresh tokens', () => {
  it('deletes the rows past their expiry, revoked families included, and keeps the live ones', async () => {
    const s = await server({ settleEveryMs: 25 })
    const count = async (where = '1 = 1') => Number((await s.server.ctx.db.one<{ n: bigint }>(`SELECT COUNT(*) AS n FROM refresh_tokens WHERE ${where}`))!.n)
    await signIn(s, 9501)
    const user = (await s.server.ctx.db.one<{ id: bigint }>('SELECT id FROM users WHERE telegram_id = 9501'))!.id
    // Seeded in one statement (the pass runs meanwhile): 30 rows long expired (10 of a revoked family), and 5 that expire in a day.
    const rows: Array<[string, string, number, number]> = [
      ...Array.from({ length: 20 }, (_, i): [string, string, number, number] => [`old-${i}`, 'family-old', T0 - 86_400 - i, 0]),
      ...Array.from({ length: 10 }, (_, i): [string, string, number, number] => [`revoked-${i}`, 'family-revoked', T0 - 86_400 - i, 1]),
      ...Array.from({ length: 5 }, (_, i): [string, string, number, number] => [`live-${i}`, 'family-live', T0 + 86_400, 0]),
    ]
    const seeded = await s.server.ctx.engine.run(
      `INSERT INTO refresh_tokens (hash, user_id, family, expires_at, used_at, revoked, session_started_at) VALUES ${rows.map(() => '(?, ?, ?, ?, NULL, ?, ?)').join(', ')}`,
      ...rows.flatMap(([hash, family, expiresAt, revoked]) => [hash, user, family, expiresAt, revoked, T0 - 60 * 86_400]),
    )
    expect(seeded.changes).toBe(35)
    const deadline = Date.now() + 5_000
    while ((await count()) > 6 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    expect(await count()).toBe(6)
    expect(await count(`family = 'family-live'`)).toBe(5)
    expect(await count(`family IN ('family-old', 'family-revoked')`)).toBe(0)
  })

  it('keeps a revoked family until its last access token has expired', async () => {
    const s = await server({ settleEveryMs: 25 })
    const pair = await signIn(s, 9502)
    expect((await logout(s, pair)).status).toBe(200)
    // The refresh token's own expiry has passed, but not yet by an access token's lifetime.
    s.clock.advance(30 * 86_400 + 60)
    await new Promise((r) => setTimeout(r, 200))
    const left = async () => Number((await s.server.ctx.db.one<{ n: bigint }>('SELECT COUNT(*) AS n FROM refresh_tokens'))!.n)
    expect(await left()).toBe(1)
    s.clock.advance(15 * 60)
    const deadline = Date.now() + 5_000
    while ((await left()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    expect(await left()).toBe(0)
  })
})
