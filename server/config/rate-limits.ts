/** The request limits' settings and the seam for where they count (server/http/rate-limits.ts applies them). */

/** At most `max` requests per `windowS` seconds (a fixed window that starts with the first one). */
export interface RateRule {
  readonly max: number
  readonly windowS: number
}

/**
 * The limits, each counted per client: the signed-in user (by id) when the request carries a valid
 * access token, else its IP. A request counts against `general` and against its class's rule.
 */
export interface RateLimitConfig {
  /** Every /api request. */
  readonly general: RateRule
  /** POST /auth/register (by IP: nobody is signed in yet). */
  readonly register: RateRule
  /** Creates and cancels: bonds, stakes, farming links (re-bonding), link activations. */
  readonly create: RateRule
  /** Money leaving: sales (withdrawals) and transfers from the referral balance. */
  readonly withdraw: RateRule
  /** Uploads: a task's validation with its photo. */
  readonly upload: RateRule
  /** Prepared share messages (POST /user/share-message): each one is a call to Telegram's Bot API. */
  readonly share: RateRule
  /** The two sockets' upgrades, per IP (they are answered before the routes: server/http/socket-limits.ts). */
  readonly sockets: SocketLimitConfig
  /** How many clients the in-process store remembers per rule (least recently seen are forgotten first). */
  readonly clients: number
}

/** Socket upgrades (`/api/ws/`, `/api/ws/candles`) per client IP. */
export interface SocketLimitConfig {
  /** Upgrades a window, refused or not (counted where the request limits count: shared on PostgreSQL). */
  readonly upgrades: RateRule
  /** Sockets open at once from one IP, on one instance. */
  readonly open: number
}

/**
 * Defaults for a real mini app: a person tapping fast never reaches them (a bond or a sale needs a
 * wallet confirmation or a form each time; the app makes about ten calls on opening), a script does.
 * Registration is by IP, and many phones share one carrier IP, so it allows 30 openings a minute.
 */
export const DEFAULT_RATE_LIMITS: RateLimitConfig = {
  general: { max: 300, windowS: 60 },
  register: { max: 30, windowS: 60 },
  create: { max: 20, windowS: 60 },
  withdraw: { max: 10, windowS: 60 },
  upload: { max: 10, windowS: 60 },
  // The app prepares one on each tap of Invite Friends; each is a Bot API call the bot's budget pays.
  share: { max: 10, windowS: 60 },
  // An opening is two sockets, and the app reconnects after a drop: 120 a minute is 60 openings,
  // twice the registrations one IP may make. Open at once: a household or an office on one IP,
  // each with a few tabs; a carrier's NAT with more people online needs AXIOM_SOCKETS_PER_IP raised.
  sockets: { upgrades: { max: 120, windowS: 60 }, open: 100 },
  clients: 50_000,
}

/** One more hit of a key, and what it comes to: the hits in the key's current window and the ms left of it. */
export interface RateCount {
  readonly current: number
  readonly ttlMs: number
}

/**
 * Where the counts live. The in-process store is the default; several instances behind one address
 * share a store of their own (PostgreSQL, Redis) through this, with no change to the routes.
 */
export interface RateLimitStore {
  /** Counts one hit of `key`; a key's window of `windowMs` starts with its first hit. */
  incr(key: string, windowMs: number): Promise<RateCount> | RateCount
}

/** Makes the store for one rule (`rule` names it, and its keys are that rule's alone). */
export type RateLimitStoreFactory = (rule: keyof Omit<RateLimitConfig, 'clients'>) => RateLimitStore
