import type { TelegramSettings } from './telegram-settings.ts'
import type { LogLevel } from './log-level.ts'
import { DEFAULT_RATE_LIMITS, type RateLimitConfig, type RateLimitStoreFactory, type RateRule } from './rate-limits.ts'

/** Dev defaults: not secret, documented in docs/api.md so tests and the local stack can sign initData. */
export const DEV_BOT_TOKEN = '7000000001:AXIOM-dev-bot-token-not-secret'
export const DEV_JWT_SECRET = 'axiom-dev-jwt-secret-not-for-production-use'
export const DEFAULT_PORT = 8787
export const DEFAULT_HOST = '127.0.0.1'
export const DEFAULT_DB_PATH = '.data/axiom.db'
export const DEFAULT_WELCOME_TOKENS = 100n
/** How old a Telegram initData may be (from its auth_date) to sign in: 1 hour. */
export const DEFAULT_INIT_DATA_MAX_AGE_S = 3_600
/** A session's absolute lifetime from its sign-in: 30 days, then the app signs in again with initData. */
export const DEFAULT_SESSION_MAX_AGE_S = 30 * 86_400
/** Nano per token (the same 9 decimals as server/domain/money.ts; config sits below the domain). */
const NANO = 1_000_000_000n
export const DEFAULT_PRICE_TICK_MS = 3_000
export const DEFAULT_PRICE_SEED = 42
/** Production's AXIOM_PRICE_MAX_AGE when unset: an hour without a recorded price pauses the bond and sale quotes. */
export const DEFAULT_PRODUCTION_PRICE_MAX_AGE_S = 3_600
/**
 * Hosts a tonProof may name (the host of the app URL in the TON Connect manifest, as wallets sign it:
 * `new URL(manifest.url).host`, so with the port when there is one). A bare hostname allows any port.
 */
export const DEFAULT_TON_PROOF_DOMAINS: ReadonlyArray<string> = ['localhost', '127.0.0.1']

/** The treasury the client pays bonds to (a raw address on workchain 0). */
export const DEV_TREASURY_ADDRESS = '0:7a1c0b4e2f0d6a3a9c5e8b1d4f7a2c6e9b3d5f8a1c4e7b2d6f9a3c5e8b1d4f7a'

/**
 * What a new account may do with its welcome balance: 'locked' (the default) lets it fund bonds and
 * links but never be sold; 'withdrawable' makes it ordinary tokens.
 */
export type WelcomePolicy = 'locked' | 'withdrawable'

export interface ServerConfig {
  readonly port: number
  readonly host: string
  readonly dbPath: string
  readonly botToken: string
  readonly jwtSecret: string
  readonly priceTickMs: number
  readonly priceSeed: number
  readonly welcomeBalanceNano: bigint
  readonly welcomePolicy: WelcomePolicy
  readonly treasuryAddress: string
  /** Seconds a Telegram initData stays acceptable after its auth_date. */
  readonly initDataMaxAgeS: number
  readonly accessTokenTtlS: number
  readonly refreshTokenTtlS: number
  /**
   * A session's absolute lifetime from its sign-in (seconds): its refresh family cannot be refreshed
   * past it however often its refresh token rotated, and no token of it lives longer.
   */
  readonly sessionMaxAgeS: number
  /** The `iss` and `aud` every access token carries and must carry to be accepted. */
  readonly jwtIssuer: string
  readonly jwtAudience: string
  /** How often active bonds and stakes are settled in the background. */
  readonly settleEveryMs: number
  readonly heartbeatMs: number
  /** Largest photo a task accepts, in bytes after base64 decoding. */
  readonly maxPhotoBytes: number
  /** The largest request body of every route but the photo's (JSON payloads of a few fields): beyond it 413. */
  readonly bodyLimitBytes: number
  /** The largest body of POST /api/task/validate, whose photo comes base64 in JSON (a phone's photo, before the maxPhotoBytes check). */
  readonly photoBodyLimitBytes: number
  /** How long GET /ready waits for the database's answer before it answers 503. */
  readonly readyTimeoutMs: number
  /** Bonds a user may have waiting for their payment at once (`pending`): one more is refused until one is paid, cancelled or expired. */
  readonly maxPendingMints: number
  /** A request's headers and body must arrive within this, else 408 (the app itself gives up after 25 s). */
  readonly requestTimeoutMs: number
  /** A create without Idempotency-Key that repeats within this window returns the first result. */
  readonly dedupeWindowS: number
  /** The tonProof domain allow-list (wallet binding): `host:port` exactly, or a bare hostname on any port. */
  readonly tonProofDomains: ReadonlyArray<string>
  /**
   * PostgreSQL: how often an instance tries to take a lease it does not hold (the price driver, the
   * payout loop): how long a dead holder's work waits for another instance.
   */
  readonly leaseRetryMs: number
  /** Request limits per user or IP (server/config/rate-limits.ts); null turns them off. */
  readonly rateLimits: RateLimitConfig | null
  /** Where the limits count; null is the in-process store (one instance). */
  readonly rateLimitStore: RateLimitStoreFactory | null
  /**
   * How many reverse proxies in front are trusted (AXIOM_TRUST_PROXY): the client IP is the n-th
   * address of X-Forwarded-For from its right (server/http/client-ip.ts); 0 is the connection's peer.
   */
  readonly trustProxy: number
  /**
   * The log (server/http/request-log.ts): off (false), or JSON lines at a level (AXIOM_LOG_LEVEL;
   * production's is always on), to stdout or a test's `destination`.
   */
  readonly logger: false | { readonly level: LogLevel; readonly destination?: { write(line: string): void } }
  /**
   * Where the price comes from: 'walk', the seeded random walk (the local stack, tests), or
   * 'recorded', the ticks an operator records (`npm run admin -- price set`): production's.
   */
  readonly priceSource: 'walk' | 'recorded'
  /**
   * On the recorded price: how old (seconds) the last recorded price may be for a bond or a sale to be
   * quoted or created at it (AXIOM_PRICE_MAX_AGE); older, they are refused with 409 until a new price is
   * recorded. null: no limit (the walk is always fresh). Production: 3600 unless set.
   */
  readonly priceMaxAgeS: number | null
  /** The tonProof networks (global ids) wallet binding accepts; production: its own network's only. */
  readonly tonProofNetworks: ReadonlyArray<string>
  /** The Bot API (server/telegram/): null runs without Telegram (membership by task 1 or the admin, no prepared shares, no notifications sent). */
  readonly telegram: TelegramSettings | null
  /**
   * The origins the app is served from (`https://app.example.com`): a browser's socket upgrade whose
   * Origin is not one of them is refused with 403 (a client that sends no Origin, not a browser, is
   * let in). null (dev): http(s) on localhost, 127.0.0.1 or [::1], any port (`npm start`'s app, the
   * Telegram host emulator, the e2e stack). AXIOM_APP_ORIGINS; required in production.
   */
  readonly appOrigins: ReadonlyArray<string> | null
  /** What one socket may send (server/http/socket-limits.ts). */
  readonly socketMessages: SocketMessageLimits
  /** The payouts' limits and breaker (AXIOM_PAYOUT_MAX_SALE, …): none unless set; production's defaults otherwise. */
  readonly payoutLimits: PayoutLimits
  /**
   * Seconds a sale to an address the user has not proven with tonProof waits before it is paid, and
   * may be cancelled from the bot's message (AXIOM_NEW_ADDRESS_DELAY; server/config/new-address-delay.ts).
   * 0: none (`npm start`, the tests); production: 3600 unless set, never 0.
   */
  readonly newAddressDelayS: number
}

/**
 * What the treasury may pay out (server/chain/payouts.ts), in nanoton; null: no such limit. A sale over
 * `maxSaleNano`, or that takes its user's sales of the last 24 h over `maxUserDayNano`, is held for
 * the operator (`npm run admin -- payout approve|reject <id>`). The breaker pauses every payment while
 * the hour's outflow has reached `maxHourNano`, while the watcher is more than `maxLagS` seconds of
 * chain time behind, or while paying would take the treasury below `treasuryReserveNano`.
 */
export interface PayoutLimits {
  readonly maxSaleNano: bigint | null
  readonly maxUserDayNano: bigint | null
  readonly maxHourNano: bigint | null
  readonly maxLagS: number | null
  readonly treasuryReserveNano: bigint | null
}

/** `npm start` and the tests: no limit (the journeys are unchanged). */
export const NO_PAYOUT_LIMITS: PayoutLimits = { maxSaleNano: null, maxUserDayNano: null, maxHourNano: null, maxLagS: null, treasuryReserveNano: null }

/** Production's, for each limit its environment variable leaves unset (docs/deploy.md, "Going live on TON"). */
export const DEFAULT_PRODUCTION_PAYOUT_LIMITS: PayoutLimits = {
  maxSaleNano: 100n * NANO,
  maxUserDayNano: 250n * NANO,
  maxHourNano: 1_000n * NANO,
  maxLagS: 300,
  treasuryReserveNano: 5n * NANO,
}

/** Per socket: the largest message each socket takes, and how many messages a window. */
export interface SocketMessageLimits {
  /** `/api/ws/`: its only message is an access token (a few hundred bytes). */
  readonly mainMaxBytes: number
  /** `/api/ws/candles`: its messages name an interval. */
  readonly candleMaxBytes: number
  /** Past it the socket closes with 1008 "Too many messages"; null: no limit. */
  readonly perSocket: RateRule | null
}

export const DEFAULT_SOCKET_MESSAGES: SocketMessageLimits = {
  mainMaxBytes: 4 * 1024,
  candleMaxBytes: 1024,
  perSocket: { max: 20, windowS: 10 },
}

export const defaultConfig = (): ServerConfig => ({
  port: DEFAULT_PORT,
  host: DEFAULT_HOST,
  dbPath: DEFAULT_DB_PATH,
  botToken: DEV_BOT_TOKEN,
  jwtSecret: DEV_JWT_SECRET,
  priceTickMs: DEFAULT_PRICE_TICK_MS,
  priceSeed: DEFAULT_PRICE_SEED,
  welcomeBalanceNano: DEFAULT_WELCOME_TOKENS * NANO,
  welcomePolicy: 'locked',
  treasuryAddress: DEV_TREASURY_ADDRESS,
  initDataMaxAgeS: DEFAULT_INIT_DATA_MAX_AGE_S,
  accessTokenTtlS: 15 * 60,
  refreshTokenTtlS: 30 * 86_400,
  sessionMaxAgeS: DEFAULT_SESSION_MAX_AGE_S,
  jwtIssuer: 'axiom',
  jwtAudience: 'axiom-api',
  settleEveryMs: 30_000,
  heartbeatMs: 30_000,
  maxPhotoBytes: 1024 * 1024,
  bodyLimitBytes: 16 * 1024,
  photoBodyLimitBytes: 8 * 1024 * 1024,
  readyTimeoutMs: 2_000,
  maxPendingMints: 5,
  requestTimeoutMs: 30_000,
  dedupeWindowS: 5,
  tonProofDomains: DEFAULT_TON_PROOF_DOMAINS,
  leaseRetryMs: 1_000,
  rateLimits: DEFAULT_RATE_LIMITS,
  rateLimitStore: null,
  trustProxy: 0,
  logger: false,
  priceSource: 'walk',
  priceMaxAgeS: null,
  tonProofNetworks: ['-239', '-3'],
  telegram: null,
  appOrigins: null,
  socketMessages: DEFAULT_SOCKET_MESSAGES,
  payoutLimits: NO_PAYOUT_LIMITS,
  newAddressDelayS: 0,
})
