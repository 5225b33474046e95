import { DEV_BOT_TOKEN, DEV_JWT_SECRET } from './config/config.ts'
import type { StartOptions } from './start-server.ts'
import { parseAppOrigins } from './config/app-origins.ts'
import {
  mnemonicFromEnv,
  NETWORK_GLOBAL_ID,
  parseNetwork,
  parseTreasuryAddress,
  parseTreasuryVersion,
  treasuryFromMnemonic,
  type TreasuryKey,
} from './chain/treasury.ts'

/** Why a production backend will not start: one line, for the operator. */
export class ProductionRefused extends Error {
  override readonly name = 'ProductionRefused'
}

const refuse = (reason: string): never => {
  throw new ProductionRefused(reason)
}

export const MIN_JWT_SECRET_BYTES = 32

/** What production adds to the options: the checked treasury key, and the chain service started with the server. */
export interface LiveOptions extends StartOptions {
  readonly treasuryKey: TreasuryKey
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

  if (!env.AXIOM_TON_NETWORK) refuse('AXIOM_TON_NETWORK is not set (mainnet or testnet)')
  let network: ReturnType<typeof parseNetwork> = 'mainnet'
  try {
    network = parseNetwork(env.AXIOM_TON_NETWORK)
  } catch (e) {
    refuse((e as Error).message)
  }
  const tonApi = env.AXIOM_TON_API?.trim()
  if (!tonApi) refuse('AXIOM_TON_API is not set (a TON HTTP API v4 endpoint)')

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
  let words: string[] | null = null
  try {
    words = mnemonicFromEnv(env)
  } catch (e) {
    refuse((e as Error).message)
  }
  if (!words) refuse('the treasury key is not set (AXIOM_TREASURY_MNEMONIC or AXIOM_TREASURY_MNEMONIC_FILE)')
  let key: TreasuryKey | null = null
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
    treasuryKey: key!,
    chain: { endpoint: tonApi!, treasury: key!, fromStart: false },
  }
}
