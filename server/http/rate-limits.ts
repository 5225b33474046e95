import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { clientIp } from './client-ip.ts'
import { httpError } from './errors.ts'
import type { RateCount, RateLimitConfig, RateLimitStoreFactory } from '../config/rate-limits.ts'

export type RateClass = Exclude<keyof RateLimitConfig, 'general' | 'sockets' | 'clients'>

/** The class of each limited route (method and route path as Fastify knows it). */
export const RATE_CLASSES: Readonly<Record<string, RateClass>> = {
  'POST /api/auth/register': 'register',
  'POST /api/mint/create': 'create',
  'POST /api/mint/:id/cancel': 'create',
  'POST /api/staking/create': 'create',
  'POST /api/farming/create': 'create',
  'POST /api/farming/:id/cancel': 'create',
  'GET /api/farming/activation-status': 'create',
  'POST /api/withdraw/create': 'withdraw',
  'POST /api/withdraw/transfer-from-referral-balance': 'withdraw',
  'POST /api/task/validate': 'upload',
  'POST /api/user/share-message': 'share',
}

export const tooManyMsg = (retryAfterS: number) => `Too many requests, try again in ${retryAfterS} s`

type Check = (req: FastifyRequest, reply: FastifyReply) => Promise<void>

/**
 * Returns the check the /api hook runs after authentication, counting in @fastify/rate-limit's
 * in-process store (registered with no automatic hooks) or, given a store factory, in its stores:
 * the general rule, then the route's class rule; an exceeded one answers 429 with `{ msg }` and
 * Retry-After, and the route never runs. With `config` null nothing is limited.
 */
export const rateLimiter = (
  app: FastifyInstance,
  config: RateLimitConfig | null,
  storeFactory: RateLimitStoreFactory | null,
  trustProxy: number,
): Check => {
  if (!config) return async () => {}
  const rules = ['general', 'register', 'create', 'withdraw', 'upload', 'share'] as const
  type Verdict = { isExceeded?: boolean; ttlInSeconds?: number }
  type Limiter = (req: FastifyRequest) => Promise<Verdict> | Verdict
  const limiters = new Map<string, Limiter>()
  const clientOf = (req: FastifyRequest) => (req.userId !== 0n ? `user:${req.userId}` : `ip:${clientIp(req.raw, trustProxy)}`)
  if (storeFactory) {
    // Our own stores are asked directly (the plugin would only wrap them in callbacks and awaits): a
    // store that answers at once (the general rule's batched count) costs the request no promise.
    for (const rule of rules) {
      const store = storeFactory(rule)
      const { max, windowS } = config[rule]
      const verdict = (r: RateCount): Verdict => ({ isExceeded: r.current > max, ttlInSeconds: Math.ceil(r.ttlMs / 1000) })
      limiters.set(rule, (req) => {
        const r = store.incr(`${rule}:${clientOf(req)}`, windowS * 1000)
        return r instanceof Promise ? r.then(verdict) : verdict(r)
      })
    }
  } else {
    app.register(rateLimit, { global: false })
    app.after(() => {
      const create = (app as unknown as { createRateLimit(o: object): Limiter }).createRateLimit
      for (const rule of rules) {
        const { max, windowS } = config[rule]
        // Each limiter gets a store of its own: the plugin's LRU of `clients` keys.
        const keyGenerator = (req: FastifyRequest) => `${rule}:${clientOf(req)}`
        limiters.set(rule, create({ max, timeWindow: windowS * 1000, keyGenerator, cache: config.clients, ruleName: rule }))
      }
    })
  }
  return async (req, reply) => {
    const cls = RATE_CLASSES[`${req.method} ${req.routeOptions.url ?? ''}`]
    for (const rule of cls ? (['general', cls] as const) : (['general'] as const)) {
      const pending = limiters.get(rule)!(req)
      const r = pending instanceof Promise ? await pending : pending
      if (r.isExceeded) {
        const after = Math.max(1, r.ttlInSeconds ?? 1)
        reply.header('retry-after', String(after))
        throw httpError(429, tooManyMsg(after))
      }
    }
  }
}
