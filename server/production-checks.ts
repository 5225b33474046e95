import { streamFromEnv } from './chain/stream-listener.ts'
import { DEFAULT_DB_PATH, DEFAULT_PRODUCTION_PRICE_MAX_AGE_S, DEV_BOT_TOKEN, DEV_JWT_SECRET } from './config/config.ts'
import type { StartOptions } from './start-server.ts'
import { parseAppOrigins } from './config/app-origins.ts'
import {
  mnemonicFromKeyFile,
  NETWORK_GLOBAL_ID,
  parseNetwork,
  parseTreasuryAddress,
  parseTreasuryVersion,
  treasuryFromMnemonic,
  type TreasuryKey,
} from './chain/treasury.ts'
import { isPostgresUrl } from './db/engine.ts'
import { LOG_LEVELS, logLevelOf } from './config/log-level.ts'
import { notPublicHost } from './config/public-host.ts'
import { estimatedEntropyBits, MIN_SECRET_ENTROPY_BITS } from './config/secret-entropy.ts'
import { defaultTelegramSettings } from './telegram/gateway.ts'
import { DEFAULT_PRODUCTION_PAYOUT_LIMITS, type PayoutLimits } from './config/config.ts'
import { payoutLimitsFromEnv, payoutLimitsOff } from './chain/payout-limits.ts'
import { parseRole, runsJobs, type Role } from './config/role.ts'
import { coldSweepFromEnv, type ColdSweep } from './chain/cold-sweep.ts'
import { productionNewAddressDelay } from './config/new-address-delay.ts'
import { metricsFromEnv } from './observability/metrics-env.ts'

/** Why a production backend will not start: one line, for the operator. */
export class ProductionRefused extends Error {
  override readonly name = 'ProductionRefused'
}

const refuse = (reason: string): never => {
  throw new ProductionRefused(reason)
}

export const MIN_JWT_SECRET_BYTES = 32

/** Refuses a URL that is not https://, naming its scheme only (a URL may carry a key). */
/** A URL's host name, lower case (two endpoints on one host are one provider's word). */
const hostOf = (url: string): string => new URL(url).hostname.toLowerCase()

const requireHttps = (name: string, url: string): void => {
  let protocol = ''
  try {
    protocol = new URL(url).protocol
  } catch {
    refuse(`${name} is not a URL`)
  }
  if (protocol !== 'https:') refuse(`${name} is ${protocol}//, not https:// (production talks to it over TLS only)`)
}

/**
 * What production adds to the options: the role, the checked treasury key and the chain service
 * started with the server (a worker, or all), or none of either and a keyless chain reader (an api instance).
 */
export interface LiveOptions extends StartOptions {
  readonly role: Role
  readonly treasuryKey: TreasuryKey | null
}

/**
 * With NODE_ENV=production nothing falls back to the repository's public values: each setting a
 * forger could otherwise exploit is required and checked, and the first missing or wrong one is the
 * reason the backend refuses to start (docs/deploy.md, "Going live on TON").
 */
export const productionOptions = async (env: NodeJS.ProcessEnv, base: StartOptions): Promise<LiveOptions> => {
  const bot = env.BOT_TOKEN?.trim()
  if (!bot) refuse('BOT_TOKEN is not set')
  if (bot === DEV_BOT_TOKEN) refuse('BOT_TOKEN is the public dev token from this repository')
  const jwt = env.JWT_SECRET
  if (!jwt) refuse('JWT_SECRET is not set')
  if (jwt === DEV_JWT_SECRET) refuse('JWT_SECRET is the public dev secret from this repository')
  if (Buffer.byteLength(jwt!, 'utf8') < MIN_JWT_SECRET_BYTES) refuse(`JWT_SECRET is under ${MIN_JWT_SECRET_BYTES} bytes`)
  // Length alone lets 32 identical characters through: the estimate (server/config/secret-entropy.ts) must reach 128 bits.
  const jwtBits = Math.floor(estimatedEntropyBits(jwt!))
  if (jwtBits < MIN_SECRET_ENTROPY_BITS) {
    refuse(`JWT_SECRET holds about ${jwtBits} bits of entropy, under ${MIN_SECRET_ENTROPY_BITS} (repeats, runs or words): use openssl rand -base64 32`)
  }

  if (!env.AXIOM_TON_NETWORK) refuse('AXIOM_TON_NETWORK is not set (mainnet or testnet)')
  let network: ReturnType<typeof parseNetwork> = 'mainnet'
  try {
    network = parseNetwork(env.AXIOM_TON_NETWORK)
  } catch (e) {
    refuse((e as Error).message)
  }
  const tonApi = env.AXIOM_TON_API?.trim()
  if (!tonApi) refuse('AXIOM_TON_API is not set (a TON HTTP API v4 endpoint)')
  // What the chain answers decides credits and payouts, and the Bot API's URL carries the bot token: TLS only.
  requireHttps('AXIOM_TON_API', tonApi!)
  // A deposit is credited on the word of two endpoints, never one: the second on another host.
  const confirmApi = env.AXIOM_TON_API_CONFIRM?.trim()
  if (!confirmApi) refuse('AXIOM_TON_API_CONFIRM is not set (a second TON HTTP API v4 endpoint, of another provider or your own node, that confirms every payment)')
  requireHttps('AXIOM_TON_API_CONFIRM', confirmApi!)
  if (hostOf(confirmApi!) === hostOf(tonApi!)) refuse(`AXIOM_TON_API_CONFIRM is on the same host as AXIOM_TON_API (${hostOf(tonApi!)}): a payment must be confirmed by an independent endpoint`)
  // The Streaming API is optional (no stream: the watcher polls); when set, it carries the provider's key: TLS
  // only, https (SSE) or wss (WebSocket).
  const streamUrl = env.AXIOM_TON_STREAM?.trim()
  if (streamUrl && !streamUrl.toLowerCase().startsWith('wss://')) requireHttps('AXIOM_TON_STREAM', streamUrl)
  requireHttps('TELEGRAM_API_ROOT', env.TELEGRAM_API_ROOT?.trim() || defaultTelegramSettings().apiRoot)

  const treasuryText = env.AXIOM_TREASURY?.trim()
  if (!treasuryText) refuse('AXIOM_TREASURY is not set')
  let treasury: ReturnType<typeof parseTreasuryAddress> | null = null
  try {
    treasury = parseTreasuryAddress(treasuryText!)
  } catch {
    refuse(`AXIOM_TREASURY ${treasuryText} is not a TON address`)
  }
  if (treasury!.testOnly !== null && treasury!.testOnly !== (network === 'testnet')) {
    refuse(`AXIOM_TREASURY is a ${treasury!.testOnly ? 'testnet' : 'mainnet'} address but AXIOM_TON_NETWORK is ${network}`)
  }
  let version: ReturnType<typeof parseTreasuryVersion> = 'v5r1'
  try {
    version = parseTreasuryVersion(env.AXIOM_TREASURY_WALLET)
  } catch (e) {
    refuse((e as Error).message)
  }
  // The key in one place (server/config/role.ts): AXIOM_ROLE said explicitly, `all` for a single instance only.
  let role: Role = 'all'
  try {
    role = parseRole(env.AXIOM_ROLE)
  } catch (e) {
    refuse((e as Error).message)
  }
  if (!env.AXIOM_ROLE?.trim()) refuse('AXIOM_ROLE is not set (api for the instances that serve the app, worker for the one that holds the treasury key; all for a single instance)')
  if (role === 'all' && env.AXIOM_SINGLE_INSTANCE?.trim() !== '1') {
    refuse('AXIOM_ROLE=all puts the treasury key on every instance: run api instances and one worker, or set AXIOM_SINGLE_INSTANCE=1 for a single instance')
  }
  let key: TreasuryKey | null = null
  if (!runsJobs(role)) {
    // An api instance never reads a treasury key: one given to it is refused, not ignored.
    const given = ['AXIOM_TREASURY_MNEMONIC', 'AXIOM_TREASURY_MNEMONIC_FILE'].find((name) => env[name] !== undefined)
    if (given) refuse(`${given} is set on an api instance (AXIOM_ROLE=api): only the worker holds the treasury key`)
  } else {
    // From a file this user alone can read, never from an environment variable.
    let words: string[] | null = null
    try {
      words = mnemonicFromKeyFile(env)
    } catch (e) {
      refuse((e as Error).message)
    }
    if (!words) refuse('the treasury key is not set (AXIOM_TREASURY_MNEMONIC_FILE: a file of the 24 words, mode 0400 or 0600, owned by this user)')
    try {
      key = await treasuryFromMnemonic(words!, version, network)
    } catch (e) {
      refuse((e as Error).message)
    }
    if (!key!.address.equals(treasury!.address)) {
      refuse(
        `AXIOM_TREASURY is not the mnemonic's wallet: the mnemonic's ${version} on ${network} is ${key!.address.toString({ testOnly: network === 'testnet' })}`,
      )
    }
  }

  // New Telegram accounts are free to make: the dev default of 100 welcome tokens is never production's by accident.
  if (!env.AXIOM_WELCOME_BALANCE?.trim()) refuse('AXIOM_WELCOME_BALANCE is not set (the tokens each new account gets; 0 for none)')
  const limits = env.AXIOM_RATE_LIMITS?.trim().toLowerCase()
  if (limits === 'off' || limits === '0' || base.rateLimits === null) refuse('AXIOM_RATE_LIMITS is off: production limits requests')
  const tonProofDomains = (env.AXIOM_TON_PROOF_DOMAINS ?? '').split(',').map((d) => d.trim()).filter(Boolean)
  if (tonProofDomains.length === 0) refuse("AXIOM_TON_PROOF_DOMAINS is not set (the app's public domain, such as app.example.com)")
  for (const domain of tonProofDomains) {
    const why = notPublicHost(domain)
    if (why) refuse(`AXIOM_TON_PROOF_DOMAINS names ${domain}: ${why}, not the app's public domain`)
  }
  const log = env.AXIOM_LOG?.trim()
  if (log && log !== '1') refuse(`AXIOM_LOG=${log} turns the request log off: production logs (AXIOM_LOG_LEVEL sets how much)`)
  let level: ReturnType<typeof logLevelOf> = 'info'
  try {
    level = logLevelOf(env.AXIOM_LOG_LEVEL)
  } catch {
    refuse(`AXIOM_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`)
  }
  // SQLite is one process's file: several instances on it would each run the payouts (docs/storage.md).
  const db = env.AXIOM_DB?.trim() || DEFAULT_DB_PATH
  if (db === ':memory:') refuse('AXIOM_DB is :memory: (everything is lost when the process stops)')
  if (!isPostgresUrl(db) && env.AXIOM_SINGLE_INSTANCE?.trim() !== '1') {
    refuse('AXIOM_DB is SQLite; set AXIOM_SINGLE_INSTANCE=1 to run one instance on it, or use PostgreSQL')
  }

  // The recorded price pauses the bond and sale quotes when it is older than this (an hour unless set).
  const priceMaxAge = env.AXIOM_PRICE_MAX_AGE?.trim().toLowerCase()
  if (priceMaxAge === 'off' || priceMaxAge === '0') {
    refuse(`AXIOM_PRICE_MAX_AGE=${priceMaxAge} lets bonds and sales go on at a price nobody updates: production pauses them (default ${DEFAULT_PRODUCTION_PRICE_MAX_AGE_S} s)`)
  }

  // The payouts' limits and breaker: production's defaults for those unset, none turned off.
  const off = payoutLimitsOff(env)
  if (off.length > 0) refuse(`${off.join(', ')}=off lets the treasury pay without that limit: production keeps every payout limit (set a value instead)`)
  let payoutLimits: PayoutLimits = DEFAULT_PRODUCTION_PAYOUT_LIMITS
  try {
    payoutLimits = payoutLimitsFromEnv(env, DEFAULT_PRODUCTION_PAYOUT_LIMITS)
  } catch (e) {
    refuse((e as Error).message)
  }
  if (payoutLimits.maxSaleNano! > payoutLimits.maxHourNano!) {
    refuse('AXIOM_PAYOUT_MAX_SALE is over AXIOM_PAYOUT_MAX_HOUR: a sale the hour cannot pay would wait for ever')
  }
  // The hot float and the cold wallet (server/chain/cold-sweep.ts): the worker's; an api instance sweeps nothing.
  let sweep: ColdSweep | null = null
  if (runsJobs(role)) {
    try {
      sweep = coldSweepFromEnv(env, { network, treasury: treasury!.address, reserveNano: payoutLimits.treasuryReserveNano, maxHourNano: payoutLimits.maxHourNano })
    } catch (e) {
      refuse((e as Error).message)
    }
  }

  // A sale to an address its user never proved with tonProof waits (an hour unless set); none is refused.
  let newAddressDelayS = 0
  try {
    newAddressDelayS = productionNewAddressDelay(env)
  } catch (e) {
    refuse((e as Error).message)
  }

  // The metrics listen on their own port (9464 unless AXIOM_METRICS_PORT says otherwise or off), never the API's.
  let metrics: ReturnType<typeof metricsFromEnv> = null
  try {
    metrics = metricsFromEnv(env, { production: true })
  } catch (e) {
    refuse((e as Error).message)
  }

  const id = String(NETWORK_GLOBAL_ID[network])
  const proofNetworks = (env.AXIOM_TON_PROOF_NETWORKS ?? id).split(',').map((s) => s.trim()).filter(Boolean)
  if (proofNetworks.length !== 1 || proofNetworks[0] !== id) {
    refuse(`AXIOM_TON_PROOF_NETWORKS (${proofNetworks.join(',')}) is not AXIOM_TON_NETWORK's ${network} (${id})`)
  }
  // The Bot API settings read the same variable (server/telegram/settings-from-env.ts): membership is asked of that chat.
  if (!env.AXIOM_COMMUNITY_CHAT?.trim()) refuse('AXIOM_COMMUNITY_CHAT is not set (the community chat members must join)')

  // The sockets refuse a browser's upgrade from any other origin (server/http/socket-limits.ts).
  let appOrigins: string[] = []
  try {
    appOrigins = parseAppOrigins(env.AXIOM_APP_ORIGINS ?? '')
  } catch (e) {
    refuse((e as Error).message)
  }
  if (appOrigins.length === 0) refuse('AXIOM_APP_ORIGINS is not set (the https origins the app is served from)')
  const plain = appOrigins.find((o) => !o.startsWith('https://'))
  if (plain) refuse(`AXIOM_APP_ORIGINS lists ${plain}: production serves the app over https only`)

  return {
    ...base,
    appOrigins,
    treasuryAddress: treasury!.address.toRawString(),
    tonProofNetworks: [id],
    priceSource: 'recorded',
    priceMaxAgeS: base.priceMaxAgeS ?? DEFAULT_PRODUCTION_PRICE_MAX_AGE_S,
    payoutLimits,
    newAddressDelayS,
    metrics,
    tonProofDomains,
    logger: { level },
    role,
    treasuryKey: key,
    // The worker's chain service, with its cold sweep; an api instance only reads the chain, with no key.
    // The Streaming API (AXIOM_TON_STREAM) is optional: without it the watcher polls (docs/deploy.md).
    ...(key ? { chain: { endpoint: tonApi!, confirmEndpoint: confirmApi!, treasury: key, fromStart: false, sweep, stream: streamFromEnv(env) } } : { chainReader: { endpoint: tonApi! } }),
  }
}
