import { DEFAULT_RATE_LIMITS, type RateLimitConfig } from '../../server/main.ts'

/**
 * The default limits × 1000: the limiter runs on every request of a test (so it is exercised), but a
 * suite that registers hundreds of users from 127.0.0.1 in seconds, which is a script by definition,
 * is not throttled. The rate-limit tests start servers with the defaults, or tighter rules, themselves.
 */
export const RELAXED_RATE_LIMITS: RateLimitConfig = {
  general: { ...DEFAULT_RATE_LIMITS.general, max: DEFAULT_RATE_LIMITS.general.max * 1000 },
  register: { ...DEFAULT_RATE_LIMITS.register, max: DEFAULT_RATE_LIMITS.register.max * 1000 },
  create: { ...DEFAULT_RATE_LIMITS.create, max: DEFAULT_RATE_LIMITS.create.max * 1000 },
  withdraw: { ...DEFAULT_RATE_LIMITS.withdraw, max: DEFAULT_RATE_LIMITS.withdraw.max * 1000 },
  upload: { ...DEFAULT_RATE_LIMITS.upload, max: DEFAULT_RATE_LIMITS.upload.max * 1000 },
  share: { ...DEFAULT_RATE_LIMITS.share, max: DEFAULT_RATE_LIMITS.share.max * 1000 },
  sockets: {
    upgrades: { ...DEFAULT_RATE_LIMITS.sockets.upgrades, max: DEFAULT_RATE_LIMITS.sockets.upgrades.max * 1000 },
    open: DEFAULT_RATE_LIMITS.sockets.open * 1000,
  },
  clients: DEFAULT_RATE_LIMITS.clients,
}
