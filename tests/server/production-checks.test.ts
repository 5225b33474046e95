import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mnemonicNew, mnemonicToPrivateKey } from '@ton/crypto'
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newTreasury } from '../../server/chain/new-treasury.ts'
import { DEV_BOT_TOKEN, DEV_JWT_SECRET, entryOptionsFromEnv, optionsFromEnv, productionOptions, ProductionRefused, startServer } from '../../server/main.ts'
import { estimatedEntropyBits, MIN_SECRET_ENTROPY_BITS } from '../../server/config/secret-entropy.ts'
import { productionEnv, productionRefusal, treasuryKeyFile } from '../support/production-env.ts'

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

/** What `openssl rand -base64 32` prints: the JWT secret deploy/ and docs/deploy.md tell operators to make. */
const JWT = execFileSync('openssl', ['rand', '-base64', '32'], { encoding: 'utf8' }).trim()

/** A complete, correct production environment; each test breaks one thing. */
const good = (): NodeJS.ProcessEnv => productionEnv({ words, treasury: w5Mainnet, jwtSecret: JWT })

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
    expect(o.treasuryKey!.version).toBe('v5r1')
    expect(o.treasuryKey!.address.toString({ testOnly: false })).toBe(w5Mainnet)
    expect(o.treasuryAddress).toMatch(/^0:[0-9a-f]{64}$/)
    expect(o.tonProofNetworks).toEqual(['-239'])
    expect(o.priceSource).toBe('recorded')
    expect(o.telegram?.communityChat).toBe('@axiom_community')
  })

  it('accepts a v4r2 treasury when configured, and the mnemonic from a file', async () => {
    const file = join(dir, 'mnemonic')
    writeFileSync(file, `${words.join('\n')}\n`, { mode: 0o400 })
    const env = { ...good(), AXIOM_TREASURY: v4, AXIOM_TREASURY_WALLET: 'v4r2', AXIOM_TREASURY_MNEMONIC_FILE: file }
    expect((await productionOptions(env, {})).treasuryKey!.version).toBe('v4r2')
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
    expect(await refusal({ ...good(), AXIOM_TREASURY_MNEMONIC_FILE: treasuryKeyFile(other) })).toMatch(/not the mnemonic's wallet/)
    expect(await refusal({ ...good(), AXIOM_TREASURY_MNEMONIC_FILE: undefined })).toMatch(/treasury key is not set/)
    expect(await refusal({ ...good(), AXIOM_TREASURY_MNEMONIC_FILE: treasuryKeyFile(Array(24).fill('abandon')) })).toMatch(/not a valid TON mnemonic/)
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
    const key = treasuryKeyFile(t.mnemonic.split(' '))
    const o = await productionOptions({ ...good(), AXIOM_TON_NETWORK: 'testnet', AXIOM_TREASURY: t.address, AXIOM_TREASURY_MNEMONIC_FILE: key }, {})
    expect(o.treasuryKey!.address.toString({ bounceable: false, testOnly: true, urlSafe: true })).toBe(t.address)
    // A testnet-flagged address on mainnet is refused.
    expect(await refusal({ ...good(), AXIOM_TREASURY: t.address, AXIOM_TREASURY_MNEMONIC_FILE: key })).toMatch(/testnet address but AXIOM_TON_NETWORK is mainnet/)
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

/**
 * The settings a deployment review found accepted in production, each given to the production entry
 * (entryOptionsFromEnv, what server/main.ts runs) on top of an otherwise valid environment.
 */
describe('production refuses unsafe settings', () => {
  const FC = { seed: Number(process.env.FC_SEED ?? 20_260_101) }

  /** The one-line reason the entry refuses `env` with. */
  const entryRefusal = productionRefusal

  it('a valid environment starts: request limits on, its own tonProof domain, the log on at info', async () => {
    const o = await entryOptionsFromEnv(good())
    expect(o.rateLimits).not.toBeNull()
    expect(o.tonProofDomains).toEqual(['app.example.com'])
    expect(o.logger).toEqual({ level: 'info' })
    expect(o.welcomeBalanceNano).toBe(0n)
    // SQLite with the single-instance opt-in, two public domains (one with a port), explicit https roots.
    const sqlite = await entryOptionsFromEnv({
      ...good(),
      AXIOM_DB: '/var/lib/axiom/axiom.db',
      AXIOM_SINGLE_INSTANCE: '1',
      AXIOM_TON_PROOF_DOMAINS: 'app.example.com, axiom-app.org:8443',
      TELEGRAM_API_ROOT: 'https://api.telegram.org',
      AXIOM_TON_API_CONFIRM: 'https://toncenter.com/api/v4',
      AXIOM_WELCOME_BALANCE: '5',
    })
    expect(sqlite.tonProofDomains).toEqual(['app.example.com', 'axiom-app.org:8443'])
    expect(sqlite.welcomeBalanceNano).toBe(5_000_000_000n)
  })

  it('refuses an unset welcome balance (the dev 100 tokens a new account would get); 0 is explicit', async () => {
    expect(await entryRefusal({ ...good(), AXIOM_WELCOME_BALANCE: undefined })).toBe(
      'AXIOM_WELCOME_BALANCE is not set (the tokens each new account gets; 0 for none)',
    )
  })

  it('refuses request limits switched off', async () => {
    expect(await entryRefusal({ ...good(), AXIOM_RATE_LIMITS: 'off' })).toBe('AXIOM_RATE_LIMITS is off: production limits requests')
    expect(await entryRefusal({ ...good(), AXIOM_RATE_LIMITS: ' OFF ' })).toBe('AXIOM_RATE_LIMITS is off: production limits requests')
    expect(await entryRefusal({ ...good(), AXIOM_RATE_LIMITS: '0' })).toBe('AXIOM_RATE_LIMITS is off: production limits requests')
  })

  it('refuses tonProof domains unset (the dev localhost list) or naming a host that is not a public domain', async () => {
    expect(await entryRefusal({ ...good(), AXIOM_TON_PROOF_DOMAINS: undefined })).toMatch(/^AXIOM_TON_PROOF_DOMAINS is not set/)
    expect(await entryRefusal({ ...good(), AXIOM_TON_PROOF_DOMAINS: ' , ' })).toMatch(/^AXIOM_TON_PROOF_DOMAINS is not set/)
    const cases: Array<[string, string]> = [
      ['localhost', 'localhost'],
      ['localhost:5173', 'localhost'],
      ['app.localhost', 'localhost'],
      ['127.0.0.1', 'a loopback address'],
      ['127.8.9.10:8080', 'a loopback address'],
      ['127.1', 'a loopback address'],
      ['2130706433', 'a loopback address'],
      ['::1', 'a loopback address'],
      ['[::1]:443', 'a loopback address'],
      ['0.0.0.0', 'the unspecified address'],
      ['10.1.2.3', 'a private address'],
      ['172.16.0.1', 'a private address'],
      ['172.31.255.254', 'a private address'],
      ['192.168.1.10', 'a private address'],
      ['[fd00::5]', 'a private address'],
      ['axiom.local', 'a private name (.local)'],
      ['203.0.113.7', 'a bare IP address'],
      ['172.32.0.1', 'a bare IP address'],
      ['backend', 'a single-label name, not a public domain'],
    ]
    for (const [entry, why] of cases) {
      expect(await entryRefusal({ ...good(), AXIOM_TON_PROOF_DOMAINS: entry }), entry).toBe(
        `AXIOM_TON_PROOF_DOMAINS names ${entry}: ${why}, not the app's public domain`,
      )
    }
    // One bad entry in a list is enough.
    expect(await entryRefusal({ ...good(), AXIOM_TON_PROOF_DOMAINS: 'app.example.com,127.0.0.1' })).toMatch(/names 127\.0\.0\.1: a loopback address/)
  })

  it('refuses a TON API, a confirming TON API or a Bot API root that is not https://', async () => {
    expect(await entryRefusal({ ...good(), AXIOM_TON_API: 'http://mainnet-v4.tonhubapi.com' })).toBe(
      'AXIOM_TON_API is http://, not https:// (production talks to it over TLS only)',
    )
    expect(await entryRefusal({ ...good(), AXIOM_TON_API_CONFIRM: 'http://toncenter.com/api/v4' })).toBe(
      'AXIOM_TON_API_CONFIRM is http://, not https:// (production talks to it over TLS only)',
    )
    expect(await entryRefusal({ ...good(), TELEGRAM_API_ROOT: 'http://api.telegram.org' })).toBe(
      'TELEGRAM_API_ROOT is http://, not https:// (production talks to it over TLS only)',
    )
    expect(await entryRefusal({ ...good(), AXIOM_TON_API: 'mainnet-v4.tonhubapi.com' })).toBe('AXIOM_TON_API is not a URL')
  })

  it('refuses to credit on one endpoint: the confirming TON API must be set, and on another host', async () => {
    expect(await entryRefusal({ ...good(), AXIOM_TON_API_CONFIRM: undefined })).toMatch(/^AXIOM_TON_API_CONFIRM is not set \(a second TON HTTP API v4 endpoint/)
    expect(await entryRefusal({ ...good(), AXIOM_TON_API_CONFIRM: ' ' })).toMatch(/^AXIOM_TON_API_CONFIRM is not set/)
    // Another path or port on the same host is the same provider's word.
    expect(await entryRefusal({ ...good(), AXIOM_TON_API_CONFIRM: 'https://MAINNET-v4.tonhubapi.com:8443/other' })).toBe(
      'AXIOM_TON_API_CONFIRM is on the same host as AXIOM_TON_API (mainnet-v4.tonhubapi.com): a payment must be confirmed by an independent endpoint',
    )
    const o = await entryOptionsFromEnv(good())
    expect(o.chain?.confirmEndpoint).toBe('https://ton-v4.example.net')
  })

  it('refuses a JWT secret of 32+ bytes but little entropy; openssl rand -base64 32 and -hex 32 pass', async () => {
    const weak = (reason: string) => expect(reason).toMatch(/^JWT_SECRET holds about \d+ bits of entropy, under 128 \(repeats, runs or words\): use openssl rand -base64 32$/)
    weak(await entryRefusal({ ...good(), JWT_SECRET: 'x'.repeat(32) }))
    weak(await entryRefusal({ ...good(), JWT_SECRET: 'a'.repeat(200) }))
    weak(await entryRefusal({ ...good(), JWT_SECRET: '0123456789'.repeat(4) }))
    weak(await entryRefusal({ ...good(), JWT_SECRET: '0123456789abcdefghijklmnopqrstuvwxyz' }))
    weak(await entryRefusal({ ...good(), JWT_SECRET: 'my-super-secret-jwt-key-for-axiom-2024' }))
    weak(await entryRefusal({ ...good(), JWT_SECRET: 'correct horse battery staple, twice!' }))
    weak(await entryRefusal({ ...good(), JWT_SECRET: 'abababababababababababababababab' }))
    // Under 32 bytes the length is the reason, as before.
    expect(await entryRefusal({ ...good(), JWT_SECRET: 'correct horse battery staple' })).toBe('JWT_SECRET is under 32 bytes')
    for (const args of [['-base64', '32'], ['-hex', '32'], ['-base64', '48']]) {
      const secret = execFileSync('openssl', ['rand', ...args], { encoding: 'utf8' }).trim()
      expect(estimatedEntropyBits(secret), secret).toBeGreaterThanOrEqual(150)
    }
    expect((await entryOptionsFromEnv({ ...good(), JWT_SECRET: execFileSync('openssl', ['rand', '-hex', '32'], { encoding: 'utf8' }).trim() })).jwtSecret).toMatch(/^[0-9a-f]{64}$/)
  })

  it('the entropy estimate: random bytes as base64 or hex always pass; 2 distinct characters, or 4 in under 64, never do', () => {
    fc.assert(
      fc.property(fc.noBias(fc.uint8Array({ minLength: 32, maxLength: 64 })), fc.constantFrom('base64', 'base64url', 'hex'), (bytes, encoding) => {
        expect(estimatedEntropyBits(Buffer.from(bytes).toString(encoding as BufferEncoding))).toBeGreaterThanOrEqual(MIN_SECRET_ENTROPY_BITS)
      }),
      { ...FC, numRuns: 2000 },
    )
    const codePoint = fc.oneof(
      fc.integer({ min: 0x20, max: 0x7e }),
      fc.integer({ min: 0, max: 0x10ffff }).filter((cp) => cp < 0xd800 || cp > 0xdfff),
    )
    fc.assert(
      fc.property(codePoint, codePoint, fc.array(fc.boolean(), { maxLength: 199, size: 'max' }), (a, b, picks) => {
        const secret = picks.map((p) => String.fromCodePoint(p ? a : b)).join('')
        expect(estimatedEntropyBits(secret)).toBeLessThan(MIN_SECRET_ENTROPY_BITS)
      }),
      { ...FC, numRuns: 2000 },
    )
    // 4 symbols hold at most 2 bits a character (their frequencies say so), however few repeats they show.
    fc.assert(
      fc.property(fc.noBias(fc.array(fc.constantFrom(...'acgt'), { minLength: 32, maxLength: 63, size: 'max' })), (chars) => {
        expect(estimatedEntropyBits(chars.join(''))).toBeLessThan(MIN_SECRET_ENTROPY_BITS)
      }),
      { ...FC, numRuns: 500 },
    )
  })

  it('the entry refuses a JWT secret of 2 distinct characters, whatever its length', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...'abcXYZ019-_+/'), fc.constantFrom(...'defUVW238.~='), fc.array(fc.boolean(), { minLength: 32, maxLength: 199, size: 'max' }), async (a, b, picks) => {
        const secret = picks.map((p) => (p ? a : b)).join('')
        expect(await entryRefusal({ ...good(), JWT_SECRET: secret })).toMatch(/^JWT_SECRET holds about/)
      }),
      { ...FC, numRuns: 200 },
    )
  })

  it('logs in production: on at info by default, at AXIOM_LOG_LEVEL, and AXIOM_LOG=0 is refused', async () => {
    expect((await entryOptionsFromEnv({ ...good(), AXIOM_LOG_LEVEL: 'warn' })).logger).toEqual({ level: 'warn' })
    expect((await entryOptionsFromEnv({ ...good(), AXIOM_LOG: '1' })).logger).toEqual({ level: 'info' })
    expect(await entryRefusal({ ...good(), AXIOM_LOG: '0' })).toBe('AXIOM_LOG=0 turns the request log off: production logs (AXIOM_LOG_LEVEL sets how much)')
    expect(await entryRefusal({ ...good(), AXIOM_LOG: 'off' })).toMatch(/^AXIOM_LOG=off turns the request log off/)
    expect(await entryRefusal({ ...good(), AXIOM_LOG_LEVEL: 'silent' })).toBe('AXIOM_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace')
    // Outside production the log stays off unless AXIOM_LOG=1.
    expect(optionsFromEnv({}).logger).toBe(false)
    expect(optionsFromEnv({ AXIOM_LOG: '1', AXIOM_LOG_LEVEL: 'debug' }).logger).toEqual({ level: 'debug' })
    // Fastify takes the level: the backend's logger runs at it.
    const server = await startServer({ port: 0, dbPath: ':memory:', logger: { level: 'fatal' } })
    try {
      expect(server.app.log.level).toBe('fatal')
    } finally {
      await server.close()
    }
  })

  it('refuses SQLite without the single-instance opt-in, and a database in memory', async () => {
    const sqlite = 'AXIOM_DB is SQLite; set AXIOM_SINGLE_INSTANCE=1 to run one instance on it, or use PostgreSQL'
    expect(await entryRefusal({ ...good(), AXIOM_DB: undefined })).toBe(sqlite)
    expect(await entryRefusal({ ...good(), AXIOM_DB: '/var/lib/axiom/axiom.db' })).toBe(sqlite)
    expect(await entryRefusal({ ...good(), AXIOM_DB: '/var/lib/axiom/axiom.db', AXIOM_SINGLE_INSTANCE: 'yes' })).toBe(sqlite)
    expect(await entryRefusal({ ...good(), AXIOM_DB: ':memory:', AXIOM_SINGLE_INSTANCE: '1' })).toBe(
      'AXIOM_DB is :memory: (everything is lost when the process stops)',
    )
    expect((await entryOptionsFromEnv({ ...good(), AXIOM_DB: 'postgresql://axiom:pw@db.example.com/axiom' })).dbPath).toMatch(/^postgresql:/)
  })

  it('the production entry, run as a process, exits 1 with the reason for each unsafe setting', () => {
    const run = (unsafe: NodeJS.ProcessEnv) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        env: { PATH: process.env.PATH, PORT: '0', ...good(), ...unsafe },
        encoding: 'utf8',
        timeout: 30_000,
      })
    const cases: Array<[NodeJS.ProcessEnv, string]> = [
      [{ AXIOM_RATE_LIMITS: 'off' }, 'AXIOM_RATE_LIMITS is off: production limits requests'],
      [{ AXIOM_TON_PROOF_DOMAINS: undefined }, "AXIOM_TON_PROOF_DOMAINS is not set (the app's public domain, such as app.example.com)"],
      [{ JWT_SECRET: 'x'.repeat(32) }, 'JWT_SECRET holds about 0 bits of entropy, under 128 (repeats, runs or words): use openssl rand -base64 32'],
    ]
    for (const [unsafe, reason] of cases) {
      const r = run(unsafe)
      expect(r.status, reason).toBe(1)
      expect(r.stderr.trim()).toBe(`AXIOM refuses to start: ${reason}`)
    }
    // A process of the production entry per case.
  }, 120_000)
})
