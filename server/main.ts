/**
 * The reference backend's programmatic entry, and the only file of server/ that anything outside it
 * may import (tests/architecture/import-rules.test.ts holds the local stand-ins to it; docs/local-stack.md,
 * "The backend's programmatic entry"). Run directly, it starts the backend alone:
 *   node --import tsx server/main.ts
 */
import { pathToFileURL } from 'node:url'
import { type WelcomePolicy, DEFAULT_DB_PATH, DEFAULT_HOST, DEFAULT_PORT, DEFAULT_PRICE_TICK_MS, DEV_BOT_TOKEN, DEV_JWT_SECRET, DEV_TREASURY_ADDRESS } from './config/config.ts'
import { DEFAULT_RATE_LIMITS, type RateLimitConfig, type RateRule } from './config/rate-limits.ts'
import { logLevelOf } from './config/log-level.ts'
import { requireNano } from './domain/money.ts'
import { parseAppOrigins } from './config/app-origins.ts'
import { startServer, type StartOptions } from './start-server.ts'
import { productionOptions, ProductionRefused } from './production-checks.ts'
import { trustProxyFromEnv } from './http/client-ip.ts'
import { telegramFromEnv } from './telegram/settings-from-env.ts'
import { payoutLimitsFromEnv } from './chain/payout-limits.ts'
import { NO_PAYOUT_LIMITS } from './config/config.ts'
import { newAddressDelayFromEnv } from './config/new-address-delay.ts'
import { parseRole } from './config/role.ts'
import { metricsFromEnv } from './observability/metrics-env.ts'

export { DEFAULT_DB_PATH, DEV_BOT_TOKEN, DEV_JWT_SECRET, type WelcomePolicy } from './config/config.ts'
/** Request limits and the seam for a store several instances share. */
export {
  DEFAULT_RATE_LIMITS,
  type RateCount,
  type RateLimitConfig,
  type RateLimitStore,
  type RateLimitStoreFactory,
  type RateRule,
} from './config/rate-limits.ts'
export { startServer, type RunningServer, type StartOptions } from './start-server.ts'
export { productionOptions, ProductionRefused, type LiveOptions } from './production-checks.ts'
/** What one process does: api, worker or all (AXIOM_ROLE). */
export { parseRole, type Role } from './config/role.ts'
export type { Lease } from './cluster/cluster.ts'
/** The chain side (server/chain/): the watcher and payouts through TonClient4, their rows, the treasury. */
export type { ChainService, ChainServiceOptions } from './chain/chain-service.ts'
export type { OutgoingPayment, PaymentRecord } from './chain/payment-rows.ts'
export { MIN_REFUND_NANO, REFUND_FEE_NANO, refundComment, saleComment } from './chain/payment-rows.ts'
export { DEFAULT_MAX_FAILURES, VALID_FOR_S, type TreasurySigner } from './chain/payouts.ts'
export { commentOf, normalizedMessageHash, TREASURY_CURSOR } from './chain/watcher.ts'
/** The Bot API settings (TELEGRAM_API_ROOT, AXIOM_COMMUNITY_CHAT, AXIOM_MINI_APP_LINK) and the notification sender. */
export { defaultTelegramSettings, type TelegramSettings } from './telegram/gateway.ts'
export type { OutboxSender } from './telegram/outbox.ts'
/** What the hooks of RunningServer take and throw. */
export type { BondPayment } from './domain/mints.ts'
export { CursorMoved, type ChainCursor, type CursorStep } from './domain/chain-cursor.ts'
export type { MintRow } from './domain/rows.ts'
export type { SaleDue } from './domain/sale-payouts.ts'
export { BondNotPending, DomainError, UnknownTelegramUser } from './domain/errors.ts'
/** The operator's commands on a database file (`npm run admin`), for a stand-in in another process. */
export { runAdminCommand } from './admin.ts'
/** The tonProof protocol: the message a wallet signs, and a payload/check service of its own. */
export { createTonProofService, tonProofMessage, type TonProofDomain, type TonProofService } from './auth/ton-proof.ts'

const positiveMs = (name: string, v: string): number => {
  const n = /^\d{1,9}$/.test(v.trim()) ? Number(v.trim()) : NaN
  if (!(n > 0)) throw new Error(`${name} must be a positive whole number of milliseconds`)
  return n
}

/** A positive whole number of seconds (at most 9 digits) from the environment. */
const positiveS = (name: string, v: string): number => {
  const n = /^\d{1,9}$/.test(v.trim()) ? Number(v.trim()) : NaN
  if (!(n > 0)) throw new Error(`${name} must be a positive whole number of seconds`)
  return n
}

/** AXIOM_PRICE_MAX_AGE: a positive whole number of seconds, or `off` / `0` for no limit. */
const priceMaxAgeFromEnv = (v: string): number | null => {
  const t = v.trim().toLowerCase()
  if (t === 'off' || t === '0') return null
  return positiveS('AXIOM_PRICE_MAX_AGE', t)
}

const RATE_RULES = ['general', 'register', 'create', 'withdraw', 'upload', 'share', 'sockets'] as const

/**
 * `AXIOM_RATE_LIMITS=off` turns the limits off; `AXIOM_RATE_LIMIT_<RULE>=<max>/<seconds>` sets one
 * rule (`SOCKETS`: socket upgrades per IP); `AXIOM_SOCKETS_PER_IP=<n>` the sockets open at once per IP.
 */
const rateLimitsFromEnv = (env: NodeJS.ProcessEnv): { rateLimits?: RateLimitConfig | null } => {
  const switchedOff = env.AXIOM_RATE_LIMITS?.trim().toLowerCase()
  if (switchedOff === 'off' || switchedOff === '0') return { rateLimits: null }
  const rules: Partial<Record<(typeof RATE_RULES)[number], RateRule>> = {}
  for (const rule of RATE_RULES) {
    const name = `AXIOM_RATE_LIMIT_${rule.toUpperCase()}`
    const v = env[name]
    if (v === undefined || v.trim() === '') continue
    const m = /^\s*(\d{1,9})\s*\/\s*(\d{1,9})\s*$/.exec(v)
    if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) throw new Error(`${name} must be <max requests>/<seconds>, such as 30/60`)
    rules[rule] = { max: Number(m[1]), windowS: Number(m[2]) }
  }
  const perIp = env.AXIOM_SOCKETS_PER_IP
  let open = DEFAULT_RATE_LIMITS.sockets.open
  if (perIp !== undefined && perIp.trim() !== '') {
    if (!/^\s*\d{1,9}\s*$/.test(perIp) || Number(perIp) < 1) throw new Error('AXIOM_SOCKETS_PER_IP must be a positive whole number, such as 100')
    open = Number(perIp)
  }
  const { sockets: upgrades, ...requests } = rules
  if (Object.keys(requests).length === 0 && !upgrades && open === DEFAULT_RATE_LIMITS.sockets.open) return {}
  return { rateLimits: { ...DEFAULT_RATE_LIMITS, ...requests, sockets: { upgrades: upgrades ?? DEFAULT_RATE_LIMITS.sockets.upgrades, open } } }
}

const welcomePolicyOf = (v: string): WelcomePolicy => {
  const p = v.trim().toLowerCase()
  if (p !== 'locked' && p !== 'withdrawable') throw new Error('AXIOM_WELCOME_POLICY must be locked or withdrawable')
  return p
}

/** The server's options from the environment (see docs/api.md, "Environment"). */
export const optionsFromEnv = (env: NodeJS.ProcessEnv = process.env): StartOptions => ({
  // AXIOM_ROLE: api (HTTP and sockets, no key), worker (the chain and the periodic jobs, no public port) or all (the default).
  role: parseRole(env.AXIOM_ROLE),
  port: env.PORT ? Number(env.PORT) : DEFAULT_PORT,
  host: env.HOST ?? DEFAULT_HOST,
  dbPath: env.AXIOM_DB ?? DEFAULT_DB_PATH,
  botToken: env.BOT_TOKEN ?? DEV_BOT_TOKEN,
  jwtSecret: env.JWT_SECRET ?? DEV_JWT_SECRET,
  priceTickMs: env.PRICE_TICK_MS ? Number(env.PRICE_TICK_MS) : DEFAULT_PRICE_TICK_MS,
  treasuryAddress: env.AXIOM_TREASURY ?? DEV_TREASURY_ADDRESS,
  // AXIOM_LOG=1 turns the request log on at AXIOM_LOG_LEVEL (info); production's is always on (server/production-checks.ts).
  logger: env.AXIOM_LOG === '1' ? { level: logLevelOf(env.AXIOM_LOG_LEVEL) } : false,
  ...(env.AXIOM_TON_PROOF_DOMAINS !== undefined && env.AXIOM_TON_PROOF_DOMAINS.trim() !== ''
    ? { tonProofDomains: env.AXIOM_TON_PROOF_DOMAINS.split(',').map((d) => d.trim()).filter(Boolean) }
    : {}),
  ...(env.AXIOM_APP_ORIGINS !== undefined && env.AXIOM_APP_ORIGINS.trim() !== '' ? { appOrigins: parseAppOrigins(env.AXIOM_APP_ORIGINS) } : {}),
  ...(env.AXIOM_LEASE_RETRY_MS !== undefined ? { leaseRetryMs: positiveMs('AXIOM_LEASE_RETRY_MS', env.AXIOM_LEASE_RETRY_MS) } : {}),
  ...(env.AXIOM_REQUEST_TIMEOUT_MS !== undefined ? { requestTimeoutMs: positiveMs('AXIOM_REQUEST_TIMEOUT_MS', env.AXIOM_REQUEST_TIMEOUT_MS) } : {}),
  ...(env.AXIOM_INIT_DATA_MAX_AGE_S !== undefined ? { initDataMaxAgeS: positiveS('AXIOM_INIT_DATA_MAX_AGE_S', env.AXIOM_INIT_DATA_MAX_AGE_S) } : {}),
  ...(env.AXIOM_SESSION_MAX_AGE_S !== undefined ? { sessionMaxAgeS: positiveS('AXIOM_SESSION_MAX_AGE_S', env.AXIOM_SESSION_MAX_AGE_S) } : {}),
  ...(env.AXIOM_PRICE_MAX_AGE !== undefined && env.AXIOM_PRICE_MAX_AGE.trim() !== '' ? { priceMaxAgeS: priceMaxAgeFromEnv(env.AXIOM_PRICE_MAX_AGE) } : {}),
  ...rateLimitsFromEnv(env),
  // AXIOM_PAYOUT_MAX_SALE, _MAX_USER_DAY, _MAX_HOUR (TON), AXIOM_PAYOUT_MAX_LAG_S, AXIOM_TREASURY_RESERVE (TON): none unless set.
  payoutLimits: payoutLimitsFromEnv(env, NO_PAYOUT_LIMITS),
  // AXIOM_NEW_ADDRESS_DELAY (seconds; 0 none): a sale to an address its user has not proven waits this long. None unless set.
  ...(env.AXIOM_NEW_ADDRESS_DELAY?.trim() ? { newAddressDelayS: newAddressDelayFromEnv(env.AXIOM_NEW_ADDRESS_DELAY) } : {}),
  telegram: telegramFromEnv(env),
  // AXIOM_METRICS_PORT (and AXIOM_METRICS_HOST): the Prometheus metrics on a port of their own; none unless set (production: 9464).
  metrics: metricsFromEnv(env, { production: false }),
  ...(trustProxyFromEnv(env.AXIOM_TRUST_PROXY) > 0 ? { trustProxy: trustProxyFromEnv(env.AXIOM_TRUST_PROXY) } : {}),
  ...(env.AXIOM_WELCOME_POLICY !== undefined ? { welcomePolicy: welcomePolicyOf(env.AXIOM_WELCOME_POLICY) } : {}),
  ...(env.AXIOM_WELCOME_BALANCE !== undefined
    ? { welcomeBalanceNano: requireNano('AXIOM_WELCOME_BALANCE', env.AXIOM_WELCOME_BALANCE, { allowZero: true }) }
    : {}),
})

/**
 * The options the entry starts with: optionsFromEnv, and with NODE_ENV=production the checks of
 * server/production-checks.ts (throws ProductionRefused with the one-line reason).
 */
export const entryOptionsFromEnv = async (env: NodeJS.ProcessEnv = process.env): Promise<StartOptions> => {
  if (env.NODE_ENV !== 'production') return optionsFromEnv(env)
  let base: StartOptions
  try {
    base = optionsFromEnv(env)
  } catch (e) {
    // A value production cannot read is refused like any unsafe one: one line, ProductionRefused.
    throw new ProductionRefused(e instanceof Error ? e.message : String(e))
  }
  return productionOptions(env, base)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const options = await entryOptionsFromEnv().catch((e: unknown) => {
    console.error(`AXIOM refuses to start: ${e instanceof Error ? e.message : String(e)}`)
    process.exit(1)
  })
  const server = await startServer(options)
  console.log(`AXIOM reference backend on ${server.url}/api (db ${server.ctx.engine.where})`)
  const stop = () => void server.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
