import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { KEPT_S, storeAnswer, storedAnswer } from '../db/idempotency-table.ts'
import { inTx, type ServerContext } from '../domain/context.ts'
import { httpError } from './errors.ts'
import { MAX_JSON_DEPTH, TOO_DEEP_MSG } from './wire-errors.ts'

/** The body with its keys sorted at every level; deeper than MAX_JSON_DEPTH is a 400, never a stack overflow. */
const canonical = (v: unknown, depth = 0): unknown => {
  if (v === null || typeof v !== 'object') return v
  if (depth >= MAX_JSON_DEPTH) throw httpError(400, TOO_DEEP_MSG)
  if (Array.isArray(v)) return v.map((x) => canonical(x, depth + 1))
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, canonical((v as Record<string, unknown>)[k], depth + 1)]),
  )
}

const fingerprintOf = (route: string, body: unknown) =>
  createHash('sha256').update(route).update('\n').update(JSON.stringify(canonical(body ?? {}))).digest('hex')

/**
 * Runs a create once per (user, route, key). With an Idempotency-Key header a repeat returns the
 * stored answer for as long as it is kept; without one, the key is the request's own fingerprint and
 * a repeat within the dedupe window returns the first answer. The check, the effect and the stored
 * answer share one transaction, and a failed create stores nothing, so it can be retried.
 */
export const once = async <T>(
  ctx: ServerContext,
  req: FastifyRequest,
  reply: FastifyReply,
  route: string,
  effect: (tx: ServerContext) => Promise<T>,
): Promise<T> => {
  const header = req.headers['idempotency-key']
  if (header !== undefined && (typeof header !== 'string' || header.length === 0 || header.length > 200))
    throw httpError(422, 'Idempotency-Key must be 1 to 200 characters')
  const fingerprint = fingerprintOf(route, req.body)
  const key = header ?? `auto:${fingerprint}`
  const userId = req.userId
  return inTx(ctx, async (ctx) => {
    const stored = await storedAnswer(ctx.db, userId, route, key)
    if (stored && (header !== undefined || ctx.now() - stored.createdAt <= ctx.config.dedupeWindowS)) {
      if (stored.fingerprint !== fingerprint) throw httpError(422, 'This Idempotency-Key was used for a different request')
      reply.header('idempotent-replayed', 'true')
      return JSON.parse(stored.body) as T
    }
    const result = await effect(ctx)
    await storeAnswer(ctx.db, userId, route, key, { fingerprint, body: JSON.stringify(result), createdAt: ctx.now() }, header === undefined ? KEPT_S.fingerprint : KEPT_S.header)
    return result
  })
}
