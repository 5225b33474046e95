import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { jwtVerify, SignJWT } from 'jose'
import { big, getRow, run, str } from '../db/sql.ts'
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

/** An access token of `userId`, naming the refresh `family` of its session (claim `fam`). */
export const issueAccessToken = (ctx: ServerContext, userId: bigint, family: string): Promise<string> =>
  new SignJWT({ typ: 'access', fam: family })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId.toString())
    .setIssuedAt(ctx.now())
    .setExpirationTime(ctx.now() + ctx.config.accessTokenTtlS)
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
    const { payload } = await jwtVerify(token, keyOf(ctx), { algorithms: ['HS256'], currentDate: new Date(ctx.now() * 1000) })
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

/** An opaque refresh token; only its hash is stored. Each belongs to a family that rotation keeps. */
const storeRefresh = async (ctx: ServerContext, userId: bigint, family: string): Promise<string> => {
  const token = randomBytes(32).toString('base64url')
  await run(
    ctx.db,
    'INSERT INTO refresh_tokens (hash, user_id, family, expires_at) VALUES (?, ?, ?, ?)',
    hashOf(token),
    userId,
    family,
    ctx.now() + ctx.config.refreshTokenTtlS,
  )
  return token
}

export const issueTokenPair = async (ctx: ServerContext, userId: bigint) => {
  const family = randomUUID()
  const refresh = await inTx(ctx, (tx) => storeRefresh(tx, userId, family))
  return { token: await issueAccessToken(ctx, userId, family), refresh }
}

/**
 * Rotates a refresh token: the presented one is spent and a new one of the same family issued.
 * Presenting a spent token means it leaked, so the whole family is revoked.
 */
export const rotateRefresh = async (ctx: ServerContext, presented: unknown) => {
  if (typeof presented !== 'string' || presented === '' || presented.length > 200) throw new NotSignedIn('Invalid refresh token')
  const outcome = await inTx(ctx, async (ctx): Promise<{ error: string } | { userId: bigint; family: string; refresh: string }> => {
    const row = await getRow(ctx.db, 'SELECT * FROM refresh_tokens WHERE hash = ?', hashOf(presented))
    if (!row) return { error: 'Invalid refresh token' }
    const family = str(row, 'family')
    if (row.used_at !== null || big(row, 'revoked') !== 0n) {
      await run(ctx.db, 'UPDATE refresh_tokens SET revoked = 1 WHERE family = ?', family)
      queueRevokedFamily(ctx, family)
      return { error: 'Refresh token was already used' }
    }
    if (big(row, 'expires_at') <= BigInt(ctx.now())) return { error: 'Refresh token expired' }
    await run(ctx.db, 'UPDATE refresh_tokens SET used_at = ? WHERE hash = ?', ctx.now(), hashOf(presented))
    const userId = big(row, 'user_id')
    return { userId, family, refresh: await storeRefresh(ctx, userId, family) }
  })
  if ('error' in outcome) throw new NotSignedIn(outcome.error)
  return { token: await issueAccessToken(ctx, outcome.userId, outcome.family), refresh: outcome.refresh }
}
