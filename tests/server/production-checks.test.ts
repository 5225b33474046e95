import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mnemonicNew, mnemonicToPrivateKey } from '@ton/crypto'
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newTreasury } from '../../server/chain/new-treasury.ts'
import { DEV_BOT_TOKEN, DEV_JWT_SECRET, optionsFromEnv, productionOptions, ProductionRefused } from '../../server/main.ts'

let words: string[]
let w5Mainnet: string
let w5Testnet: string
let v4: string
const dir = mkdtempSync(join(tmpdir(), 'axiom-prod-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

beforeAll(async () => {
  words = await mnemonicNew()
  const { publicKey } = await mnemonicToPrivateKey(words)
  w5Mainnet = WalletContractV5R1.create({ publicKey, walletId: { networkGlobalId: -239 } }).address.toString({ testOnly: false })
  w5Testnet = WalletContractV5R1.create({ publicKey, walletId: { networkGlobalId: -3 } }).address.toString({ testOnly: true })
  v4 = WalletContractV4.create({ workchain: 0, publicKey }).address.toString({ testOnly: false })
})

/** A complete, correct production environment; each test breaks one thing. */
const good = (): NodeJS.ProcessEnv => ({
  NODE_ENV: 'production',
  BOT_TOKEN: '8123456789:a-real-looking-bot-token',
  JWT_SECRET: 'x'.repeat(32),
  AXIOM_TON_NETWORK: 'mainnet',
  AXIOM_TON_API: 'https://mainnet-v4.tonhubapi.com',
  AXIOM_TREASURY: w5Mainnet,
  AXIOM_TREASURY_MNEMONIC: words.join(' '),
  AXIOM_COMMUNITY_CHAT: '@axiom_community',
  AXIOM_APP_ORIGINS: 'https://app.example.com',
})

const refusal = async (env: NodeJS.ProcessEnv): Promise<string> => {
  try {
    await productionOptions(env, optionsFromEnv(env))
  } catch (e) {
    expect(e).toBeInstanceOf(ProductionRefused)
    const msg = (e as Error).message
    expect(msg).not.toContain('\n')
    return msg
  }
  throw new Error('the environment was accepted')
}

describe('production fails closed (NODE_ENV=production)', () => {
  it('starts with a complete environment: the treasury, one tonProof network, the recorded price', async () => {
    const o = await productionOptions(good(), optionsFromEnv(good()))
    expect(o.treasuryKey.version).toBe('v5r1')
    expect(o.treasuryKey.address.toString({ testOnly: false })).toBe(w5Mainnet)
    expect(o.treasuryAddress).toMatch(/^0:[0-9a-f]{64}$/)
    expect(o.tonProofNetworks).toEqual(['-239'])
    expect(o.priceSource).toBe('recorded')
    expect(o.telegram?.communityChat).toBe('@axiom_community')
  })

  it('accepts a v4r2 treasury when configured, and the mnemonic from a file', async () => {
    const file = join(dir, 'mnemonic')
    writeFileSync(file, `${words.join('\n')}\n`)
    const env = { ...good(), AXIOM_TREASURY: v4, AXIOM_TREASURY_WALLET: 'v4r2', AXIOM_TREASURY_MNEMONIC: undefined, AXIOM_TREASURY_MNEMONIC_FILE: file }
    expect((await productionOptions(env, {})).treasuryKey.version).toBe('v4r2')
  })

  it('refuses the dev bot token, or none', async () => {
    expect(await refusal({ ...good(), BOT_TOKEN: DEV_BOT_TOKEN })).toMatch(/BOT_TOKEN is the public dev token/)
    expect(await refusal({ ...good(), BOT_TOKEN: undefined })).toBe('BOT_TOKEN is not set')
  })

  it('refuses the dev JWT secret, none, or one under 32 bytes', async () => {
    expect(await refusal({ ...good(), JWT_SECRET: DEV_JWT_SECRET })).toMatch(/JWT_SECRET is the public dev secret/)
    expect(await refusal({ ...good(), JWT_SECRET: undefined })).toBe('JWT_SECRET is not set')
    expect(await refusal({ ...good(), JWT_SECRET: 'x'.repeat(31) })).toBe('JWT_SECRET is under 32 bytes')
  })

  it('refuses a missing or unparsable treasury', async () => {
    expect(await refusal({ ...good(), AXIOM_TREASURY: undefined })).toBe('AXIOM_TREASURY is not set')
    expect(await refusal({ ...good(), AXIOM_TREASURY: 'EQ-not-an-address' })).toMatch(/is not a TON address/)
  })

  it("refuses a treasury that is not the mnemonic's wallet, a missing key, and a bad mnemonic", async () => {
    expect(await refusal({ ...good(), AXIOM_TREASURY: v4 })).toMatch(/AXIOM_TREASURY is not the mnemonic's wallet/)
    const other = await mnemonicNew()
    expect(await refusal({ ...good(), AXIOM_TREASURY_MNEMONIC: other.join(' ') })).toMatch(/not the mnemonic's wallet/)
    expect(await refusal({ ...good(), AXIOM_TREASURY_MNEMONIC: undefined })).toMatch(/treasury key is not set/)
    expect(await refusal({ ...good(), AXIOM_TREASURY_MNEMONIC: 'abandon '.repeat(24) })).toMatch(/not a valid TON mnemonic/)
  })

  it('refuses a network that does not match the treasury address or the tonProof network', async () => {
    // The testnet-flagged address of the same key on mainnet.
    expect(await refusal({ ...good(), AXIOM_TREASURY: w5Testnet })).toBe('AXIOM_TREASURY is a testnet address but AXIOM_TON_NETWORK is mainnet')
    // W5's address holds the network: the testnet wallet's raw address is another account than mainnet's.
    const rawTestnet = (await productionOptions({ ...good(), AXIOM_TON_NETWORK: 'testnet', AXIOM_TREASURY: w5Testnet }, {})).treasuryAddress
    expect(await refusal({ ...good(), AXIOM_TREASURY: rawTestnet })).toMatch(/not the mnemonic's wallet/)
    expect(await refusal({ ...good(), AXIOM_TON_PROOF_NETWORKS: '-3' })).toMatch(/AXIOM_TON_PROOF_NETWORKS \(-3\) is not AXIOM_TON_NETWORK's mainnet/)
    expect(await refusal({ ...good(), AXIOM_TON_PROOF_NETWORKS: '-239,-3' })).toMatch(/AXIOM_TON_PROOF_NETWORKS/)
    expect(await refusal({ ...good(), AXIOM_TON_NETWORK: undefined })).toMatch(/AXIOM_TON_NETWORK is not set/)
    expect(await refusal({ ...good(), AXIOM_TON_NETWORK: 'devnet' })).toMatch(/AXIOM_TON_NETWORK must be mainnet or testnet/)
  })

  it('refuses without a community chat or a v4 endpoint', async () => {
    expect(await refusal({ ...good(), AXIOM_COMMUNITY_CHAT: ' ' })).toMatch(/AXIOM_COMMUNITY_CHAT is not set/)
    expect(await refusal({ ...good(), AXIOM_TON_API: undefined })).toMatch(/AXIOM_TON_API is not set/)
  })

  it('refuses sockets open to any page: AXIOM_APP_ORIGINS unset, not an origin, or not https', async () => {
    expect((await productionOptions(good(), optionsFromEnv(good()))).appOrigins).toEqual(['https://app.example.com'])
    expect(await refusal({ ...good(), AXIOM_APP_ORIGINS: undefined })).toBe('AXIOM_APP_ORIGINS is not set (the https origins the app is served from)')
    expect(await refusal({ ...good(), AXIOM_APP_ORIGINS: ' , ' })).toBe('AXIOM_APP_ORIGINS is not set (the https origins the app is served from)')
    expect(await refusal({ ...good(), AXIOM_APP_ORIGINS: 'https://app.example.com, http://app.example.com' })).toBe(
      'AXIOM_APP_ORIGINS lists http://app.example.com: production serves the app over https only',
    )
    expect(await productionOptions({ ...good(), AXIOM_APP_ORIGINS: 'https://app.example.com/path' }, {}).catch((e: Error) => e.message)).toMatch(
      /^AXIOM_APP_ORIGINS: https:\/\/app.example.com\/path is not an origin/,
    )
  })

  it('npm run treasury:new creates a treasury the checks accept: its mnemonic and its address', async () => {
    const t = await newTreasury('testnet', 'v5r1')
    expect(t.mnemonic.split(' ')).toHaveLength(24)
    const o = await productionOptions({ ...good(), AXIOM_TON_NETWORK: 'testnet', AXIOM_TREASURY: t.address, AXIOM_TREASURY_MNEMONIC: t.mnemonic }, {})
    expect(o.treasuryKey.address.toString({ bounceable: false, testOnly: true, urlSafe: true })).toBe(t.address)
    // A testnet-flagged address on mainnet is refused.
    expect(await refusal({ ...good(), AXIOM_TREASURY: t.address, AXIOM_TREASURY_MNEMONIC: t.mnemonic })).toMatch(/testnet address but AXIOM_TON_NETWORK is mainnet/)
  })

  it('the entry prints one line and exits 1 (what deploy/Dockerfile runs)', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { PATH: process.env.PATH, NODE_ENV: 'production', PORT: '0', AXIOM_DB: ':memory:' },
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(r.status).toBe(1)
    expect(r.stderr.trim()).toBe('AXIOM refuses to start: BOT_TOKEN is not set')
  })
})
