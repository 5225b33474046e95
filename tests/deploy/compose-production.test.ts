import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mnemonicNew, mnemonicToPrivateKey } from '@ton/crypto'
import { WalletContractV5R1 } from '@ton/ton'
import { afterAll, describe, expect, it } from 'vitest'
import { entryOptionsFromEnv } from '../../server/main.ts'

type Node = string | Node[] | { [key: string]: Node }
type Mapping = { [key: string]: Node }

/**
 * docker-compose.yml read without a YAML library, for the subset it is written in: mappings,
 * sequences (of scalars or of mappings), full-line comments, an anchor on a mapping (`key: &name`) and
 * its merge (`<<: *name`). A key named twice in one mapping, merged keys included, throws: compose
 * would stop on the first, and would silently prefer one of the second.
 */
const readCompose = (text: string): Mapping => {
  const lines = text
    .split('\n')
    .map((raw) => ({ indent: raw.length - raw.trimStart().length, text: raw.trim() }))
    .filter((l) => l.text !== '' && !l.text.startsWith('#'))
  const anchors = new Map<string, Mapping>()
  let i = 0
  const scalar = (v: string): string => v.replace(/^"(.*)"$/, '$1')
  const block = (indent: number): Node => (lines[i]!.text.startsWith('- ') ? sequence(indent) : mapping(indent))
  const put = (map: Mapping, key: string, value: Node) => {
    if (key in map) throw new Error(`docker-compose.yml names ${key} twice in one mapping`)
    map[key] = value
  }
  const mapping = (indent: number, into: Mapping = {}): Mapping => {
    while (i < lines.length && lines[i]!.indent === indent && !lines[i]!.text.startsWith('- ')) {
      const m = /^([^:\s][^:]*?):(?:\s+(.*))?$/.exec(lines[i]!.text)
      if (!m) throw new Error(`docker-compose.yml: cannot read "${lines[i]!.text}"`)
      i++
      const [, key, rest = ''] = m
      if (key === '<<') {
        const anchored = anchors.get(rest.replace(/^\*/, ''))
        if (!anchored) throw new Error(`docker-compose.yml: no anchor ${rest}`)
        for (const [k, v] of Object.entries(anchored)) put(into, k, v)
        continue
      }
      if (rest === '' || rest.startsWith('&')) {
        const value = i < lines.length && lines[i]!.indent > indent ? block(lines[i]!.indent) : ''
        if (rest.startsWith('&')) anchors.set(rest.slice(1), value as Mapping)
        put(into, key!, value)
      } else put(into, key!, scalar(rest))
    }
    return into
  }
  const sequence = (indent: number): Node[] => {
    const items: Node[] = []
    while (i < lines.length && lines[i]!.indent === indent && lines[i]!.text.startsWith('- ')) {
      const item = lines[i]!.text.slice(2)
      if (/^[A-Za-z_][\w-]*:\s/.test(item)) {
        // A mapping in a sequence: its first key on the dash's line, the rest two further in.
        lines[i] = { indent: indent + 2, text: item }
        items.push(mapping(indent + 2))
      } else {
        i++
        items.push(scalar(item))
      }
    }
    return items
  }
  return mapping(0)
}

const compose = readCompose(readFileSync('docker-compose.yml', 'utf8'))
const services = compose.services as Record<string, Mapping>
const environmentOf = (service: string): Record<string, string> => services[service]!.environment as Record<string, string>

/** Compose's interpolation of the forms the file uses: ${X}, ${X:-default}, ${X:?message}. */
const interpolate = (value: string, shell: Record<string, string>): string =>
  value.replace(/\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g, (_all, name: string, op: string | undefined, arg: string) => {
    const v = shell[name]
    if (v !== undefined && v !== '') return v
    if (op === '-') return arg
    if (op === '?') throw new Error(`compose would stop: ${arg}`)
    return ''
  })

const dir = mkdtempSync(join(tmpdir(), 'axiom-compose-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('docker-compose.yml: N api instances and one worker', () => {
  it('gives both roles the same environment, each variable named once, and its role', () => {
    const shared = compose['x-backend-environment'] as Record<string, string>
    expect(Object.keys(shared).length).toBeGreaterThan(10)
    for (const [service, role] of [['api', 'api'], ['worker', 'worker']] as const) {
      const env = environmentOf(service)
      expect(env.AXIOM_ROLE, service).toBe(role)
      for (const [name, value] of Object.entries(shared)) expect(env[name], `${service} ${name}`).toBe(value)
    }
  })

  it('holds no treasury key in any environment: the worker alone reads it, from a Docker secret mounted as a file', () => {
    expect(readFileSync('docker-compose.yml', 'utf8')).not.toMatch(/^\s*AXIOM_TREASURY_MNEMONIC\s*:/m)
    for (const [name, service] of Object.entries(services)) {
      expect(Object.keys((service.environment as Mapping | undefined) ?? {}), name).not.toContain('AXIOM_TREASURY_MNEMONIC')
    }
    expect(environmentOf('api')).not.toHaveProperty('AXIOM_TREASURY_MNEMONIC_FILE')
    expect(services.api).not.toHaveProperty('secrets')
    expect(environmentOf('worker').AXIOM_TREASURY_MNEMONIC_FILE).toBe('/run/secrets/treasury_mnemonic')
    expect(services.worker!.secrets).toEqual(['treasury_mnemonic'])
    expect((compose.secrets as Record<string, Mapping>).treasury_mnemonic).toEqual({ file: expect.stringMatching(/^\$\{AXIOM_TREASURY_KEY_FILE:\?/) })
    // The alerts' bot token goes to the alertmanager alone; the other services see no secret.
    expect(services.alertmanager!.secrets).toEqual(['alert_bot_token'])
    expect((compose.secrets as Record<string, Mapping>).alert_bot_token).toEqual({ file: expect.stringMatching(/^\$\{AXIOM_ALERT_BOT_TOKEN_FILE:\?/) })
    for (const name of ['postgres', 'bot', 'proxy', 'prometheus', 'grafana']) expect(services[name], name).not.toHaveProperty('secrets')
  })

  it('runs the api instances behind nginx and one worker that nobody reaches: only the proxy is published', () => {
    expect(Number((services.api!.deploy as Mapping).replicas)).toBeGreaterThanOrEqual(2)
    expect((services.worker!.deploy as Mapping).replicas).toBe('1')
    for (const [name, service] of Object.entries(services)) expect('ports' in service, name).toBe(name === 'proxy')
    const nginx = readFileSync('deploy/nginx.conf', 'utf8')
    const upstream = /upstream axiom_backend \{([^}]*)\}/.exec(nginx)![1]!
    expect(upstream.match(/^\s*server\s+\S+/gm)!.map((l) => l.trim())).toEqual(['server api:8787'])
    expect(nginx).not.toMatch(/\bworker:8787\b/)
    expect(environmentOf('bot').AXIOM_API).toBe('http://api:8787')
  })

  it('with the variables docs/deploy.md exports, the production entry starts the api instance and the worker', async () => {
    const words = await mnemonicNew()
    const { publicKey } = await mnemonicToPrivateKey(words)
    const treasury = WalletContractV5R1.create({ publicKey, walletId: { networkGlobalId: -239 } }).address.toString({ testOnly: false })
    // The host's key file, as docs/deploy.md says to make it (mode 0400, the worker's user's).
    const keyFile = join(dir, 'treasury.mnemonic')
    writeFileSync(keyFile, `${words.join(' ')}\n`)
    chmodSync(keyFile, 0o400)
    const cold = `0:${'c0'.repeat(32)}`
    // What an operator exports (docs/deploy.md, "Bring it up with Docker Compose"); the rest are compose's defaults.
    const shell = {
      POSTGRES_PASSWORD: 'pw',
      BOT_TOKEN: '8123456789:a-real-looking-bot-token',
      JWT_SECRET: 'kP3v9Qm2xW7tR1zL8cN4bH6yJ0fD5gS2aE9uV3iO7pM=',
      AXIOM_TREASURY: treasury,
      AXIOM_TREASURY_KEY_FILE: keyFile,
      AXIOM_COLD_ADDRESS: cold,
      AXIOM_TON_NETWORK: 'mainnet',
      AXIOM_TON_API: 'https://mainnet-v4.tonhubapi.com',
      AXIOM_TON_API_CONFIRM: 'https://toncenter.com/api/v4',
      AXIOM_DOMAIN: 'app.example.com',
      AXIOM_COMMUNITY_CHAT: '@your_channel',
      AXIOM_MINI_APP_LINK: 'https://t.me/your_bot/app',
    }
    const envOf = (service: string): NodeJS.ProcessEnv => {
      const env: NodeJS.ProcessEnv = { NODE_ENV: 'production' }
      for (const [name, value] of Object.entries(environmentOf(service))) env[name] = interpolate(value, shell)
      return env
    }

    const api = envOf('api')
    expect(api.AXIOM_WELCOME_BALANCE).toBe('0')
    expect(api.AXIOM_LOG_LEVEL).toBe('info')
    const a = await entryOptionsFromEnv(api)
    expect(a.role).toBe('api')
    expect(a.chain).toBeUndefined()
    expect(a.welcomeBalanceNano).toBe(0n)
    expect(a.logger).toEqual({ level: 'info' })
    expect(a.tonProofDomains).toEqual(['app.example.com'])
    expect(a.dbPath).toMatch(/^postgres:\/\//)

    // The secret is the host's file, mounted at the path the worker names.
    const worker = envOf('worker')
    const secret = interpolate(((compose.secrets as Record<string, Mapping>).treasury_mnemonic!.file as string), shell)
    expect(secret).toBe(keyFile)
    const w = await entryOptionsFromEnv({ ...worker, AXIOM_TREASURY_MNEMONIC_FILE: secret })
    expect(w.role).toBe('worker')
    expect(w.chain?.treasury.wallet.address.toString({ testOnly: false })).toBe(treasury)
    expect(w.chain?.sweep).toEqual({ coldAddress: cold, floatNano: 1005_000_000_000n })
    // Without the cold wallet's address, mainnet's worker refuses to start.
    await expect(entryOptionsFromEnv({ ...worker, AXIOM_TREASURY_MNEMONIC_FILE: secret, AXIOM_COLD_ADDRESS: interpolate(environmentOf('worker').AXIOM_COLD_ADDRESS!, { ...shell, AXIOM_COLD_ADDRESS: '' }) })).rejects.toThrow(/AXIOM_COLD_ADDRESS is not set/)
  })
})
