import { deleteInBatches } from '../db/bounded-delete.ts'
import { audit } from '../domain/audit.ts'
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { jwtVerify, SignJWT } from 'jose'
import { allRows, big, getRow, run, str, type Row } from '../db/sql.ts'
import { inTx, type ServerContext } from '../domain/context.ts'
import { NotSignedIn } from '../domain/errors.ts'
import { queueRevokedFamily } from '../domain/user-events.ts'

const keys = new WeakMap<ServerContext, Uint8Array>()
const keyOf = (ctx: ServerContext) => {
  let key = keys.get(ctx)
  if (!key) {
    key = new TextEncoder().encode(ctx.config.jwtSecret)
    keys.set(ctx, key)
  }
  return key
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex')

/**
 * An access token of `userId`, naming the refresh `family` of its session (claim `fam`), issued by
 * config.jwtIssuer for config.jwtAudience (claims `iss`, `aud`), and living accessTokenTtlS but never
 * past its session's end (`sessionEndsAt`, unix seconds).
 */
export const issueAccessToken = (ctx: ServerContext, userId: bigint, family: string, sessionEndsAt: number): Promise<string> =>
  new SignJWT({ typ: 'access', fam: family })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ctx.config.jwtIssuer)
    .setAudience(ctx.config.jwtAudience)
    .setSubject(userId.toString())
    .setIssuedAt(ctx.now())
    .setExpirationTime(Math.min(ctx.now() + ctx.config.accessTokenTtlS, sessionEndsAt))
    .sign(keyOf(ctx))

export interface Verified {
  readonly userId: bigint
  readonly exp: number
  readonly family: string
}

export const SESSION_REVOKED_MSG = 'Session was revoked'

/**
 * What this instance knows of session families: the revoked ones (for good), and the ones found not
 * revoked (for FAMILY_KEPT_MS). A revocation is announced to every instance (a `revoked` change,
 * server/start-server.ts), which marks it here at once; the time limit covers an announcement missed
 * while a PostgreSQL listening connection reconnected. So a request costs no query for it.
 */
interface Families {
  readonly revoked: Set<string>
  readonly valid: Map<string, number>
}
const families = new WeakMap<ServerContext, Families>()
const FAMILY_KEPT_MS = 30_000
const KEPT_FAMILIES = 10_000
const familiesOf = (ctx: ServerContext): Families => {
  let f = families.get(ctx)
  if (!f) families.set(ctx, (f = { revoked: new Set(), valid: new Map() }))
  return f
}

/** A family was revoked (here or on another instance): its access tokens stop working on this one. */
export const noteFamilyRevoked = (ctx: ServerContext, family: string): void => {
  const f = familiesOf(ctx)
  f.valid.delete(family)
  if (f.revoked.size >= KEPT_FAMILIES) f.revoked.delete(f.revoked.values().next().value!)
  f.revoked.add(family)
}

/** Forgets which families were found valid (an announced revocation may have been missed): each is checked again. */
export const forgetValidFamilies = (ctx: ServerContext): void => familiesOf(ctx).valid.clear()

const keepValid = (ctx: ServerContext, family: string) => {
  const f = familiesOf(ctx)
  if (f.revoked.has(family)) return
  if (f.valid.size >= KEPT_FAMILIES) f.valid.delete(f.valid.keys().next().value!)
  f.valid.set(family, Date.now())
}

/** Was the session's refresh family revoked (a spent refresh token was presented)? */
const familyRevoked = async (ctx: ServerContext, family: string): Promise<boolean> => {
  const f = familiesOf(ctx)
  if (f.revoked.has(family)) return true
  const at = f.valid.get(family)
  if (at !== undefined && Date.now() - at < FAMILY_KEPT_MS) return false
  const revoked = (await getRow(ctx.db, 'SELECT 1 AS r FROM refresh_tokens WHERE family = ? AND revoked = 1 LIMIT 1', family)) !== undefined
  if (revoked) noteFamilyRevoked(ctx, family)
  else keepValid(ctx, family)
  return revoked
}

/** Tokens already verified, per server: the signature of a given string never changes, only its age. */
const verifiedCache = new WeakMap<ServerContext, Map<string, Verified>>()
const CACHE_SIZE = 10_000

/** The user id of a valid, unexpired access token of an existing user, or NotSignedIn saying why. */
export const verifyAccessToken = async (ctx: ServerContext, token: string): Promise<bigint> =>
  (await verifyAccessTokenClaims(ctx, token)).userId

/**
 * The access token's user and expiry (unix seconds); throws NotSignedIn like verifyAccessToken. A token whose
 * refresh family was revoked stops working at once, not at its expiry.
 */
export const verifyAccessTokenClaims = async (ctx: ServerContext, token: string): Promise<Verified> => {
  let cache = verifiedCache.get(ctx)
  if (!cache) verifiedCache.set(ctx, (cache = new Map()))
  const hit = cache.get(token)
  if (hit) {
    if (hit.exp <= ctx.now()) {
      cache.delete(token)
      throw new NotSignedIn('Token expired')
    }
    if (await familyRevoked(ctx, hit.family)) throw new NotSignedIn(SESSION_REVOKED_MSG)
    return hit
  }
  let verified: Verified
  try {
    const { payload } = await jwtVerify(token, keyOf(ctx), {
      algorithms: ['HS256'],
      issuer: ctx.config.jwtIssuer,
      audience: ctx.config.jwtAudience,
      currentDate: new Date(ctx.now() * 1000),
    })
    const { typ, sub, exp, fam } = payload
    if (typ !== 'access' || typeof sub !== 'string' || !/^\d{1,18}$/.test(sub) || typeof exp !== 'number' || typeof fam !== 'string')
      throw new Error('claims')
    verified = { userId: BigInt(sub), exp, family: fam }
  } catch (e) {
    const expired = (e as { code?: string }).code === 'ERR_JWT_EXPIRED'
    throw new NotSignedIn(expired ? 'Token expired' : 'Invalid token')
  }
  // The user and the family in one round trip.
  const found = await getRow(
    ctx.db,
    'SELECT id, (SELECT COUNT(*) FROM refresh_tokens WHERE family = ? AND revoked = 1) AS revoked FROM users WHERE id = ?',
    verified.family,
    verified.userId,
  )
  if (!found) throw new NotSignedIn('Invalid token')
  if (familiesOf(ctx).revoked.has(verified.family) || big(found, 'revoked') > 0n) {
    noteFamilyRevoked(ctx, verified.family)
    throw new NotSignedIn(SESSION_REVOKED_MSG)
  }
  keepValid(ctx, verified.family)
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!)
  cache.set(token, verified)
  return verified
}

/** When a session that signed in at `startedAt` ends (config.sessionMaxAgeS later), unix seconds. */
const sessionEnd = (ctx: ServerContext, startedAt: number): number => startedAt + ctx.config.sessionMaxAgeS

/**
 * An opaque refresh token; only its hash is stored. Each belongs to a family (a session) that rotation
 * keeps, and carries when that session signed in: it expires refreshTokenTtlS after its issue, but
 * never past the session's end.
 */
const storeRefresh = async (ctx: ServerContext, userId: bigint, family: string, startedAt: number): Promise<string> => {
  const token = randomBytes(32).toString('base64url')
  await run(
    ctx.db,
    'INSERT INTO refresh_tokens (hash, user_id, family, expires_at, session_started_at) VALUES (?, ?, ?, ?, ?)',
    hashOf(token),
    userId,
    family,
    Math.min(ctx.now() + ctx.config.refreshTokenTtlS, sessionEnd(ctx, startedAt)),
    startedAt,
  )
  return token
}

/** A new session (a sign-in): a new family, its first refresh token and an access token. */
export const issueTokenPair = async (ctx: ServerContext, userId: bigint) => {
  const family = randomUUID()
  const startedAt = ctx.now()
  const refresh = await inTx(ctx, (tx) => storeRefresh(tx, userId, family, startedAt))
  return { token: await issueAccessToken(ctx, userId, family, sessionEnd(ctx, startedAt)), refresh }
}

export const SESSION_EXPIRED_MSG = 'Session expired: sign in again'

/** Revokes a family inside the caller's transaction, and announces it (a `revoked` change) to every instance once it commits. */
const revokeFamily = async (ctx: ServerContext, family: string): Promise<void> => {
  await run(ctx.db, 'UPDATE refresh_tokens SET revoked = 1 WHERE family = ?', family)
  queueRevokedFamily(ctx, family)
}

/**
 * Rotates a refresh token: the presented one is spent and a new one of the same family issued.
 * Presenting a spent token means it leaked, so the whole family is revoked.
 */
export const rotateRefresh = async (ctx: ServerContext, presented: unknown) => {
  if (typeof presented !== 'string' || presented === '' || presented.length > 200) throw new NotSignedIn('Invalid refresh token')
  const outcome = await inTx(ctx, async (ctx): Promise<{ error: string } | { userId: bigint; family: string; startedAt: number; refresh: string }> => {
    const row = await getRow(ctx.db, 'SELECT * FROM refresh_tokens WHERE hash = ?', hashOf(presented))
    if (!row) return { error: 'Invalid refresh token' }
    const family = str(row, 'family')
    if (row.used_at !== null || big(row, 'revoked') !== 0n) {
      await revokeFamily(ctx, family)
      return { error: 'Refresh token was already used' }
    }
    // However often it rotated, a session ends sessionMaxAgeS after its sign-in.
    const startedAt = startedAtOf(row, ctx)
    if (sessionEnd(ctx, startedAt) <= ctx.now()) return { error: SESSION_EXPIRED_MSG }
    if (big(row, 'expires_at') <= BigInt(ctx.now())) return { error: 'Refresh token expired' }
    await run(ctx.db, 'UPDATE refresh_tokens SET used_at = ? WHERE hash = ?', ctx.now(), hashOf(presented))
    const userId = big(row, 'user_id')
    return { userId, family, startedAt, refresh: await storeRefresh(ctx, userId, family, startedAt) }
  })
  if ('error' in outcome) throw new NotSignedIn(outcome.error)
  return { token: await issueAccessToken(ctx, outcome.userId, outcome.family, sessionEnd(ctx, outcome.startedAt)), refresh: outcome.refresh }
}

/** When a refresh token's session signed in (a row from before that was kept: 30 days before its expiry, as migration 13 reckons). */
const startedAtOf = (row: Row, ctx: ServerContext): number =>
  row.session_started_at === null || row.session_started_at === undefined
    ? Number(big(row, 'expires_at')) - ctx.config.refreshTokenTtlS
    : Number(big(row, 'session_started_at'))

/**
 * Ends the session `family` of `userId` (a logout): `presented` must be a refresh token of that very
 * session (spent or not), so an access token alone cannot end it. Its refresh tokens stop working, and
 * its access tokens stop at once on every instance (the `revoked` change).
 */
export const endSession = async (ctx: ServerContext, userId: bigint, family: string, presented: unknown): Promise<void> => {
  if (typeof presented !== 'string' || presented === '' || presented.length > 200) throw new NotSignedIn('Invalid refresh token')
  const ended = await inTx(ctx, async (ctx) => {
    const row = await getRow(ctx.db, 'SELECT user_id, family FROM refresh_tokens WHERE hash = ?', hashOf(presented))
    if (!row || str(row, 'family') !== family || big(row, 'user_id') !== userId) return false
    await revokeFamily(ctx, family)
    await audit({ ...ctx, actor: ctx.actor ?? `user:${userId}` }, 'session.ended', userId, { family })
    return true
  })
  if (!ended) throw new NotSignedIn('Invalid refresh token')
}

/**
 * Ends every live session of a user (the operator's `revoke`): each family with a refresh token not yet
 * expired (an expired one's access tokens have expired too) revoked and announced; how many.
 */
export const endUserSessions = (ctx: ServerContext, userId: bigint): Promise<number> =>
  inTx(ctx, async (ctx) => {
    const families = await allRows(
      ctx.db,
      'SELECT DISTINCT family FROM refresh_tokens WHERE user_id = ? AND revoked = 0 AND expires_at > ?',
      userId,
      ctx.now(),
    )
    for (const f of families) await revokeFamily(ctx, str(f, 'family'))
    await audit(ctx, 'session.revoked', userId, { sessions: families.length })
    return families.length
  })

/**
 * Deletes the refresh tokens past their expiry (revoked families' included), from the periodic pass.
 * An access token never outlives the refresh token issued with it (accessTokenTtlS is shorter; both
 * stop at the session's end), so a revoked family's rows go only once its access tokens are dead;
 * the rows wait accessTokenTtlS more all the same, should a deployment set a longer access lifetime.
 */
export const pruneRefreshTokens = (ctx: ServerContext, o: { readonly signal?: AbortSignal } = {}) =>
  deleteInBatches(ctx.db, 'refresh_tokens', 'expires_at < ?', [ctx.now() - ctx.config.accessTokenTtlS], o)
