import { readFileSync } from 'node:fs'
import { mnemonicNew, mnemonicToPrivateKey } from '@ton/crypto'
import { WalletContractV5R1 } from '@ton/ton'
import { describe, expect, it } from 'vitest'
import { entryOptionsFromEnv } from '../../server/main.ts'

/**
 * docker-compose.yml's backend, read as text (no YAML library): its `environment:` entries, in order,
 * as `[name, value]` with compose's quotes removed.
 */
const backendEnvironment = (): Array<[string, string]> => {
  const lines = readFileSync('docker-compose.yml', 'utf8').split('\n')
  const service = lines.findIndex((l) => /^ {2}backend:\s*$/.test(l))
  expect(service).toBeGreaterThan(-1)
  const start = lines.findIndex((l, i) => i > service && /^ {4}environment:\s*$/.test(l))
  const entries: Array<[string, string]> = []
  for (const line of lines.slice(start + 1)) {
    if (/^\s*(#.*)?$/.test(line)) continue
    const m = /^ {6}([A-Z0-9_]+):\s*(.*)$/.exec(line)
    if (!m) break
    entries.push([m[1]!, m[2]!.trim().replace(/^"(.*)"$/, '$1')])
  }
  return entries
}

/** Compose's interpolation of the forms the file uses: ${X}, ${X:-default}, ${X:?message}. */
const interpolate = (value: string, shell: Record<string, string>): string =>
  value.replace(/\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g, (_all, name: string, op: string | undefined, arg: string) => {
    const v = shell[name]
    if (v !== undefined && v !== '') return v
    if (op === '-') return arg
    if (op === '?') throw new Error(`compose would stop: ${arg}`)
    return ''
  })

describe('docker-compose.yml gives the backend what production requires', () => {
  it('names each variable once', () => {
    const names = backendEnvironment().map(([n]) => n)
    expect(names.length).toBeGreaterThan(10)
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([])
  })

  it('with the variables docs/deploy.md exports, the production entry starts (welcome balance, log level, PostgreSQL)', async () => {
    const words = await mnemonicNew()
    const { publicKey } = await mnemonicToPrivateKey(words)
    const treasury = WalletContractV5R1.create({ publicKey, walletId: { networkGlobalId: -239 } }).address.toString({ testOnly: false })
    // What an operator exports (docs/deploy.md, "Bring it up with Docker Compose"); the rest are compose's defaults.
    const shell = {
      POSTGRES_PASSWORD: 'pw',
      BOT_TOKEN: '8123456789:a-real-looking-bot-token',
      JWT_SECRET: 'kP3v9Qm2xW7tR1zL8cN4bH6yJ0fD5gS2aE9uV3iO7pM=',
      AXIOM_TREASURY: treasury,
      AXIOM_TREASURY_MNEMONIC: words.join(' '),
      AXIOM_TON_NETWORK: 'mainnet',
      AXIOM_TON_API: 'https://mainnet-v4.tonhubapi.com',
      AXIOM_DOMAIN: 'app.example.com',
      AXIOM_COMMUNITY_CHAT: '@your_channel',
      AXIOM_MINI_APP_LINK: 'https://t.me/your_bot/app',
    }
    const env: NodeJS.ProcessEnv = { NODE_ENV: 'production' }
    for (const [name, value] of backendEnvironment()) env[name] = interpolate(value, shell)
    expect(env.AXIOM_WELCOME_BALANCE).toBe('0')
    expect(env.AXIOM_LOG_LEVEL).toBe('info')
    const o = await entryOptionsFromEnv(env)
    expect(o.welcomeBalanceNano).toBe(0n)
    expect(o.logger).toEqual({ level: 'info' })
    expect(o.tonProofDomains).toEqual(['app.example.com'])
    expect(o.dbPath).toMatch(/^postgres:\/\//)
  })
})
