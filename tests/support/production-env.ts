import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { mnemonicNew, mnemonicToPrivateKey } from '@ton/crypto'
import { WalletContractV5R1 } from '@ton/ton'
import { expect } from 'vitest'
import { entryOptionsFromEnv, ProductionRefused } from '../../server/main.ts'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Where the key files of this test process are written (removed when it exits). */
let keyDir: string | null = null

/**
 * A file holding `words` as production reads the treasury key: mode 0600, owned by this process's user
 * (server/chain/treasury.ts, mnemonicFromKeyFile). `mode` makes one with other permissions.
 */
export const treasuryKeyFile = (words: ReadonlyArray<string>, mode = 0o600): string => {
  if (keyDir === null) {
    const dir = mkdtempSync(join(tmpdir(), 'axiom-key-'))
    keyDir = dir
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  }
  const file = join(keyDir, `mnemonic-${Math.random().toString(36).slice(2)}`)
  writeFileSync(file, `${words.join(' ')}\n`, { mode })
  // The mode exactly, whatever the umask took off.
  chmodSync(file, mode)
  return file
}

/** A mainnet address that is not the treasury's: the cold wallet production requires on mainnet (AXIOM_COLD_ADDRESS). */
export const COLD_ADDRESS = `0:${'c0'.repeat(32)}`

/**
 * A complete production environment (NODE_ENV=production) that the backend's entry accepts, for a
 * mainnet treasury whose mnemonic and address the test made; each test then breaks or adds one thing.
 * It is the worker's (AXIOM_ROLE=worker), the key in a file of mode 0600, a cold wallet set.
 */
export const productionEnv = (
  key: { readonly words: ReadonlyArray<string>; readonly treasury: string; readonly jwtSecret: string },
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv => ({
  NODE_ENV: 'production',
  BOT_TOKEN: '8123456789:a-real-looking-bot-token',
  JWT_SECRET: key.jwtSecret,
  AXIOM_TON_NETWORK: 'mainnet',
  AXIOM_TON_API: 'https://mainnet-v4.tonhubapi.com',
  AXIOM_TON_API_CONFIRM: 'https://ton-v4.example.net',
  AXIOM_TREASURY: key.treasury,
  AXIOM_ROLE: 'worker',
  AXIOM_TREASURY_MNEMONIC_FILE: treasuryKeyFile(key.words),
  AXIOM_COLD_ADDRESS: COLD_ADDRESS,
  AXIOM_COMMUNITY_CHAT: '@axiom_community',
  AXIOM_WELCOME_BALANCE: '0',
  AXIOM_TON_PROOF_DOMAINS: 'app.example.com',
  AXIOM_DB: 'postgres://axiom:pw@db.example.com:5432/axiom',
  AXIOM_APP_ORIGINS: 'https://app.example.com',
  // The metrics on a free port: production's 9464 would be one port for every test process started at once.
  AXIOM_METRICS_PORT: '0',
  ...extra,
})

/** A JWT secret production accepts (43 random base64 characters). */
export const PRODUCTION_JWT_SECRET = 'q8Zr1v3N0pXk2Lw9Yt6Hs4Bd7Mf5Jc1Ge8Ua0Ri3Oy='

/**
 * A new mainnet W5 treasury (its mnemonic and address) and the production environment for it, with
 * PRODUCTION_JWT_SECRET; `env(extra)` changes it.
 */
export const newProductionTreasury = async () => {
  const words = await mnemonicNew()
  const { publicKey } = await mnemonicToPrivateKey(words)
  const treasury = WalletContractV5R1.create({ publicKey, walletId: { networkGlobalId: -239 } }).address.toString({ testOnly: false })
  return { words, treasury, env: (extra: NodeJS.ProcessEnv = {}) => productionEnv({ words, treasury, jwtSecret: PRODUCTION_JWT_SECRET }, extra) }
}

/** The one-line reason the production entry (entryOptionsFromEnv) refuses `env` with; fails the test when it accepts it. */
export const productionRefusal = async (env: NodeJS.ProcessEnv): Promise<string> => {
  const reason = await entryOptionsFromEnv(env).then(
    () => null,
    (e: unknown) => {
      expect(e).toBeInstanceOf(ProductionRefused)
      return (e as Error).message
    },
  )
  if (reason === null) throw new Error('the environment was accepted')
  expect(reason).not.toContain('\n')
  return reason
}
