import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Address } from '@ton/core'
import { mnemonicNew, mnemonicToPrivateKey } from '@ton/crypto'
import { WalletContractV5R1 } from '@ton/ton'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SWEEP_MARGIN_NANO, sweepAmount } from '../../server/chain/cold-sweep.ts'
import { mnemonicFromKeyFile } from '../../server/chain/treasury.ts'
import { entryOptionsFromEnv, runAdminCommand } from '../../server/main.ts'
import { COLD_ADDRESS, productionEnv, productionRefusal, treasuryKeyFile } from '../support/production-env.ts'

/**
 * Production's rules for the key in one place and the cold wallet (server/production-checks.ts,
 * server/chain/treasury.ts, server/chain/cold-sweep.ts): AXIOM_ROLE said explicitly; an api instance
 * refuses any treasury key; a worker reads it from a file its user alone can read, never from the
 * environment; on mainnet a cold wallet that is not the treasury, and a float at least the reserve.
 */
let words: string[]
let treasury: string
let treasuryTestnet: string
const dir = mkdtempSync(join(tmpdir(), 'axiom-roles-prod-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

beforeAll(async () => {
  words = await mnemonicNew()
  const { publicKey } = await mnemonicToPrivateKey(words)
  treasury = WalletContractV5R1.create({ publicKey, walletId: { networkGlobalId: -239 } }).address.toString({ testOnly: false })
  treasuryTestnet = WalletContractV5R1.create({ publicKey, walletId: { networkGlobalId: -3 } }).address.toString({ testOnly: true })
})

const JWT = 'q8Zr1v3N0pXk2Lw9Yt6Hs4Bd7Mf5Jc1Ge8Ua0Ri3Oy='
/** The worker's environment (a key file of mode 0600, a cold wallet); `extra` changes it. */
const worker = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => productionEnv({ words, treasury, jwtSecret: JWT }, extra)
/** An api instance's: no key at all. */
const api = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => worker({ AXIOM_ROLE: 'api', AXIOM_TREASURY_MNEMONIC_FILE: undefined, ...extra })

const refusal = productionRefusal

/** The production entry as deploy/Dockerfile runs it, as a child process: its exit status and stderr. */
const entry = (env: NodeJS.ProcessEnv) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env: { PATH: process.env.PATH, PORT: '0', ...env }, encoding: 'utf8', timeout: 30_000 })

/**
 * The production entry started as a process on a SQLite file with a price recorded (production's
 * price source), its chain endpoints where nothing answers: resolves with its URL once it listens.
 */
const started = async (env: NodeJS.ProcessEnv): Promise<{ url: string; stop(): Promise<void> }> => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env: { PATH: process.env.PATH, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stderr.on('data', (c: Buffer) => (err += c.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not listening after 30 s: ${err}`)), 30_000)
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString()
      const m = /AXIOM reference backend on (http:\/\/\S+)\/api/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve(m[1]!)
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`exited ${code}: ${err}`))
    })
  })
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

describe('roles in production', () => {
  it('AXIOM_ROLE must be said: unset or unknown is refused, and all only for a single instance', async () => {
    expect(await refusal(worker({ AXIOM_ROLE: undefined }))).toMatch(/^AXIOM_ROLE is not set \(api for the instances that serve the app, worker for the one that holds the treasury key/)
    // Read with the other settings (server/main.ts, optionsFromEnv): the entry prints it as it prints a refusal.
    await expect(entryOptionsFromEnv(worker({ AXIOM_ROLE: 'both' }))).rejects.toThrow('AXIOM_ROLE must be api, worker or all (got "both")')
    expect(await refusal(worker({ AXIOM_ROLE: 'all' }))).toMatch(/^AXIOM_ROLE=all puts the treasury key on every instance/)
    const single = await entryOptionsFromEnv(worker({ AXIOM_ROLE: 'all', AXIOM_SINGLE_INSTANCE: '1' }))
    expect(single.role).toBe('all')
    expect(single.chain?.treasury).toBeDefined()
  })

  it('an api instance starts without a key: no chain service, a keyless chain reader; given a key, even empty, it refuses', async () => {
    const o = await entryOptionsFromEnv(api())
    expect(o.role).toBe('api')
    expect(o.chain).toBeUndefined()
    expect(o.chainReader).toEqual({ endpoint: 'https://mainnet-v4.tonhubapi.com' })
    expect((o as { treasuryKey?: unknown }).treasuryKey).toBeNull()
    // No cold wallet is needed where nothing is swept.
    expect((await entryOptionsFromEnv(api({ AXIOM_COLD_ADDRESS: undefined }))).role).toBe('api')
    expect(await refusal(api({ AXIOM_TREASURY_MNEMONIC_FILE: treasuryKeyFile(words) }))).toBe(
      'AXIOM_TREASURY_MNEMONIC_FILE is set on an api instance (AXIOM_ROLE=api): only the worker holds the treasury key',
    )
    expect(await refusal(api({ AXIOM_TREASURY_MNEMONIC: words.join(' ') }))).toBe(
      'AXIOM_TREASURY_MNEMONIC is set on an api instance (AXIOM_ROLE=api): only the worker holds the treasury key',
    )
    expect(await refusal(api({ AXIOM_TREASURY_MNEMONIC: '' }))).toMatch(/^AXIOM_TREASURY_MNEMONIC is set on an api instance/)
  })
})

describe('the treasury key comes from a file its user alone reads', () => {
  it('mode 0600 and 0400 are accepted; 0644, 0640, 0604 and 0700 are refused, with the mode and what to do', async () => {
    for (const mode of [0o600, 0o400]) {
      const o = await entryOptionsFromEnv(worker({ AXIOM_TREASURY_MNEMONIC_FILE: treasuryKeyFile(words, mode) }))
      expect(o.chain?.treasury.wallet.address.toString({ testOnly: false })).toBe(treasury)
    }
    for (const mode of [0o644, 0o640, 0o604, 0o700]) {
      const file = treasuryKeyFile(words, mode)
      expect(await refusal(worker({ AXIOM_TREASURY_MNEMONIC_FILE: file }))).toBe(
        `AXIOM_TREASURY_MNEMONIC_FILE ${file} has mode 0${mode.toString(8)}: only its owner may read it (chmod 400 or 600)`,
      )
    }
  })

  it('refuses a file of another user, a directory, a missing file, and the words in AXIOM_TREASURY_MNEMONIC (set at all)', async () => {
    const file = treasuryKeyFile(words)
    const uid = process.getuid!()
    expect(mnemonicFromKeyFile({ AXIOM_TREASURY_MNEMONIC_FILE: file }, uid)).toEqual(words)
    expect(() => mnemonicFromKeyFile({ AXIOM_TREASURY_MNEMONIC_FILE: file }, uid + 1)).toThrow(
      `AXIOM_TREASURY_MNEMONIC_FILE ${file} is owned by uid ${uid}, not by this process's uid ${uid + 1} (chown it to the user the backend runs as)`,
    )
    const folder = join(dir, 'a-folder')
    mkdirSync(folder)
    chmodSync(folder, 0o700)
    expect(await refusal(worker({ AXIOM_TREASURY_MNEMONIC_FILE: folder }))).toBe(`AXIOM_TREASURY_MNEMONIC_FILE ${folder} is not a regular file`)
    expect(await refusal(worker({ AXIOM_TREASURY_MNEMONIC_FILE: join(dir, 'none') }))).toBe(`AXIOM_TREASURY_MNEMONIC_FILE ${join(dir, 'none')} is not readable (ENOENT)`)
    const inEnv = /^AXIOM_TREASURY_MNEMONIC is set: production reads the treasury key only from the file AXIOM_TREASURY_MNEMONIC_FILE names/
    expect(await refusal(worker({ AXIOM_TREASURY_MNEMONIC: words.join(' ') }))).toMatch(inEnv)
    expect(await refusal(worker({ AXIOM_TREASURY_MNEMONIC: words.join(' '), AXIOM_TREASURY_MNEMONIC_FILE: undefined }))).toMatch(inEnv)
    expect(await refusal(worker({ AXIOM_TREASURY_MNEMONIC: '' }))).toMatch(inEnv)
    expect(await refusal(worker({ AXIOM_TREASURY_MNEMONIC_FILE: undefined }))).toMatch(/^the treasury key is not set \(AXIOM_TREASURY_MNEMONIC_FILE/)
  })

  it('as a process: exits 1 with one line for an api instance given a key, a key file of mode 0644, or the words in the environment', () => {
    const cases: Array<[NodeJS.ProcessEnv, string]> = [
      [api({ AXIOM_TREASURY_MNEMONIC_FILE: treasuryKeyFile(words) }), 'AXIOM_TREASURY_MNEMONIC_FILE is set on an api instance (AXIOM_ROLE=api): only the worker holds the treasury key'],
      [api({ AXIOM_TREASURY_MNEMONIC: words.join(' ') }), 'AXIOM_TREASURY_MNEMONIC is set on an api instance (AXIOM_ROLE=api): only the worker holds the treasury key'],
    ]
    const open = treasuryKeyFile(words, 0o644)
    cases.push([worker({ AXIOM_TREASURY_MNEMONIC_FILE: open }), `AXIOM_TREASURY_MNEMONIC_FILE ${open} has mode 0644: only its owner may read it (chmod 400 or 600)`])
    cases.push([
      worker({ AXIOM_TREASURY_MNEMONIC: words.join(' ') }),
      'AXIOM_TREASURY_MNEMONIC is set: production reads the treasury key only from the file AXIOM_TREASURY_MNEMONIC_FILE names (no environment variable may hold it)',
    ])
    for (const [env, reason] of cases) {
      const r = entry(env)
      expect(r.status, reason).toBe(1)
      expect(r.stderr.trim()).toBe(`AXIOM refuses to start: ${reason}`)
    }
  }, 120_000)

  it('as a process: a worker with its key in a 0600 file starts, on 127.0.0.1 only, answering /health and nothing of the API; an api instance starts with no key', async () => {
    const db = join(dir, 'axiom.db')
    expect(await runAdminCommand(db, ['price', 'set', '0.025'])).toMatch(/the first price recorded/)
    // Nothing answers at these endpoints: the worker's watcher logs its failed passes, and nothing is decided.
    const where = { AXIOM_DB: db, AXIOM_SINGLE_INSTANCE: '1', HOST: '0.0.0.0', AXIOM_TON_API: 'https://127.0.0.1:9/', AXIOM_TON_API_CONFIRM: 'https://localhost:9/' }
    const w = await started(worker(where))
    try {
      expect(w.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect((await fetch(`${w.url}/health`)).status).toBe(200)
      expect((await fetch(`${w.url}/api/price/current-price`)).status).toBe(404)
    } finally {
      await w.stop()
    }
    const a = await started(api({ ...where, HOST: '127.0.0.1' }))
    try {
      expect((await fetch(`${a.url}/ready`)).status).toBe(200)
      // The API is there: a call without a session is refused as unauthenticated, not unknown.
      expect((await fetch(`${a.url}/api/price/current-price`)).status).toBe(401)
    } finally {
      await a.stop()
    }
  }, 120_000)
})

describe('the cold wallet and the float in production', () => {
  const TON = 1_000_000_000n

  it('the float defaults to the reserve plus the hour limit (1005 TON); an explicit one is read exactly', async () => {
    expect((await entryOptionsFromEnv(worker())).chain?.sweep).toEqual({ coldAddress: COLD_ADDRESS, floatNano: 1005n * TON })
    expect((await entryOptionsFromEnv(worker({ AXIOM_TREASURY_FLOAT: '250.5', AXIOM_TREASURY_RESERVE: '10' }))).chain?.sweep?.floatNano).toBe(250_500_000_000n)
    // A friendly mainnet address is kept in raw form.
    const friendly = Address.parse(COLD_ADDRESS).toString({ testOnly: false })
    expect((await entryOptionsFromEnv(worker({ AXIOM_COLD_ADDRESS: friendly }))).chain?.sweep?.coldAddress).toBe(COLD_ADDRESS)
  })

  it('refuses mainnet without a cold wallet, the treasury itself, an address of the other network or none at all, and a float under the reserve', async () => {
    expect(await refusal(worker({ AXIOM_COLD_ADDRESS: undefined }))).toMatch(/^AXIOM_COLD_ADDRESS is not set \(the cold wallet the treasury's excess over AXIOM_TREASURY_FLOAT goes to; required on mainnet\)$/)
    expect(await refusal(worker({ AXIOM_COLD_ADDRESS: treasury }))).toBe('AXIOM_COLD_ADDRESS is the treasury itself: the cold wallet must be another, whose key the backend never holds')
    expect(await refusal(worker({ AXIOM_COLD_ADDRESS: Address.parse(treasury).toRawString() }))).toMatch(/is the treasury itself/)
    const testnetCold = Address.parse(COLD_ADDRESS).toString({ testOnly: true })
    expect(await refusal(worker({ AXIOM_COLD_ADDRESS: testnetCold }))).toBe('AXIOM_COLD_ADDRESS is a testnet address but AXIOM_TON_NETWORK is mainnet')
    expect(await refusal(worker({ AXIOM_COLD_ADDRESS: 'EQ-not-an-address' }))).toBe('AXIOM_COLD_ADDRESS EQ-not-an-address is not a TON address')
    expect(await refusal(worker({ AXIOM_TREASURY_FLOAT: '4.999999999' }))).toBe('AXIOM_TREASURY_FLOAT (4.999999999 GRAM) is under AXIOM_TREASURY_RESERVE (5 GRAM): the float must cover the reserve')
    expect(await refusal(worker({ AXIOM_TREASURY_FLOAT: 'lots' }))).toMatch(/^AXIOM_TREASURY_FLOAT .*\(an amount of GRAM, such as 1000 or 250.5\)$/)
    expect((await entryOptionsFromEnv(worker({ AXIOM_TREASURY_FLOAT: '5' }))).chain?.sweep?.floatNano).toBe(5n * TON)
  })

  it('testnet may run without a cold wallet (nothing is swept), but not with a float and no cold wallet', async () => {
    const testnet = (extra: NodeJS.ProcessEnv) =>
      worker({ AXIOM_TON_NETWORK: 'testnet', AXIOM_TREASURY: treasuryTestnet, AXIOM_TON_API: 'https://testnet-v4.tonhubapi.com', AXIOM_TON_API_CONFIRM: 'https://testnet.toncenter.com/api/v4', ...extra })
    expect((await entryOptionsFromEnv(testnet({ AXIOM_COLD_ADDRESS: undefined }))).chain?.sweep).toBeNull()
    expect(await refusal(testnet({ AXIOM_COLD_ADDRESS: undefined, AXIOM_TREASURY_FLOAT: '100' }))).toBe('AXIOM_TREASURY_FLOAT is set without AXIOM_COLD_ADDRESS: nothing would be swept')
    expect(await refusal(testnet({ AXIOM_COLD_ADDRESS: Address.parse(COLD_ADDRESS).toString({ testOnly: false }) }))).toBe(
      'AXIOM_COLD_ADDRESS is a mainnet address but AXIOM_TON_NETWORK is testnet',
    )
  })

  it('the sweep rule: nothing at or below the float plus 1 TON; above it, all but 0.01 TON over the float', () => {
    const float = 1000n * TON
    expect(SWEEP_MARGIN_NANO).toBe(TON)
    expect(sweepAmount(float, float)).toBeNull()
    expect(sweepAmount(float + TON - 1n, float)).toBeNull()
    expect(sweepAmount(float + TON, float)).toBe(TON - 10_000_000n)
    expect(sweepAmount(float + 250n * TON, float)).toBe(250n * TON - 10_000_000n)
  })
})
