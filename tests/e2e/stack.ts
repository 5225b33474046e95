import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import type { Browser, FrameLocator, Page } from 'playwright-core'
import { build, preview, type PreviewServer } from 'vite'
import { afterAll, beforeAll } from 'vitest'
import { defaultTelegramSettings, DEV_BOT_TOKEN, type RunningServer, startServer } from '../../server/main.ts'
import { botConfigFromEnv } from '../../bot/config.ts'
import { runBot, type RunningBot } from '../../bot/run.ts'
import { createBotApiState, type RunningBotApi, startBotApiServer } from '../../stand-ins/telegram-host/bot-api.ts'
import { attachLocalTon, type LocalTon, type LocalTonOptions, localTreasuryAddress } from '../../stand-ins/local-ton.ts'
import { adminForServer } from '../../stand-ins/telegram-host/db-admin.ts'
import { type RunningTelegramHost, startTelegramHost } from '../../stand-ins/telegram-host/index.ts'
import { DEV_WALLET_DEFAULT_NETWORK } from '../../stand-ins/ton-connect/dev-wallet.ts'
import { launchChromium } from '../support/chromium.ts'
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.ts'
import { signInitDataFor } from '../support/init-data.ts'
import { RELAXED_RATE_LIMITS } from '../support/relaxed-limits.ts'

/**
 * The whole product for a browser test: the reference backend (in-memory), a fault proxy in front
 * of it, the production build of the app served by vite preview, the Telegram host emulator, and
 * Debian's Chromium.
 */
export interface Stack {
  readonly server: RunningServer
  /** The local TON chain, bridge and dev wallet, when the stack was started with `ton: true`. */
  readonly ton: LocalTon | null
  readonly proxy: FaultProxy
  readonly appUrl: string
  readonly host: RunningTelegramHost
  /** The emulator's Bot API (the host serves the same state): the backend's TELEGRAM_API_ROOT. */
  readonly telegram: RunningBotApi
  /** The product's bot, when the stack was started with `live: true`. */
  readonly bot: RunningBot | null
  readonly browser: Browser
  close(): Promise<void>
}

let builtDir: string | null = null

/** Builds the app once per test run. */
const buildApp = async (): Promise<string> => {
  if (builtDir) return builtDir
  const dir = mkdtempSync(join(tmpdir(), 'axiom-e2e-dist-'))
  // The app reaches the local TON stack through its own origin, as under `npm start`.
  process.env.VITE_TON_V4_ENDPOINT = '/ton'
  process.env.VITE_TON_WALLETS_LIST = '/ton/wallets-v2.json'
  // The app pins the network the local dev wallet claims (attachLocalTon below keeps its default), as under `npm start`.
  process.env.VITE_TON_NETWORK = DEV_WALLET_DEFAULT_NETWORK
  await build({ configFile: 'vite.config.ts', logLevel: 'warn', build: { outDir: dir, emptyOutDir: true } })
  builtDir = dir
  return dir
}

/**
 * The stack's database: in-memory SQLite, or with AXIOM_E2E_PG=postgres://… a fresh schema of that
 * PostgreSQL for each stack (the journeys on the other engine).
 */
const stackDb = async (): Promise<string> => {
  const base = process.env.AXIOM_E2E_PG
  if (!base) return ':memory:'
  const schema = `e2e_${randomBytes(8).toString('hex')}`
  const client = new pg.Client({ connectionString: base })
  await client.connect()
  try {
    await client.query(`CREATE SCHEMA ${schema}`)
  } finally {
    await client.end()
  }
  const url = new URL(base)
  url.searchParams.set('options', `-c search_path=${schema}`)
  return url.toString()
}

/**
 * `live: true` runs the stack as it goes live on Telegram: membership from getChatMember on the
 * emulator's community (AXIOM_COMMUNITY_CHAT), and the product's bot polling the emulator. Without
 * it, membership stays the dev one (the admin), but the Bot API is there for prepared messages.
 */
export interface StackOptions {
  readonly ton?: boolean
  readonly live?: boolean
  /** The local TON's options besides the stack's own (a clocked chain, its stream). */
  readonly tonOptions?: LocalTonOptions
}

export const startStack = async (o: StackOptions = {}): Promise<Stack> => {
  const telegram = await startBotApiServer(createBotApiState({ token: DEV_BOT_TOKEN, botUsername: 'axiom_dev_bot', botName: 'AXIOM', communityChat: '@axiom_community' }))
  const server = await startServer({
    telegram: { ...defaultTelegramSettings(), apiRoot: telegram.url, communityChat: o.live ? '@axiom_community' : null },
    port: 0,
    dbPath: await stackDb(),
    priceTickMs: 500,
    // One IP (the fault proxy's) for every user of the whole suite: the defaults would throttle it.
    rateLimits: RELAXED_RATE_LIMITS,
    ...(o.ton ? { treasuryAddress: localTreasuryAddress() } : {}),
  })
  // The chain as `npm start` runs it: a block every 400 ms (mainnet's cadence), the watcher on its stream.
  const ton = o.ton ? await attachLocalTon(server, { port: 0, autoApprove: 'approve', heartbeatMs: 1_000, blockIntervalMs: 400, stream: true, ...o.tonOptions }) : null
  const proxy = await startFaultProxy(server.url)
  const outDir = await buildApp()
  const app: PreviewServer = await preview({
    configFile: 'vite.config.ts',
    logLevel: 'warn',
    build: { outDir },
    preview: {
      port: 0,
      host: '127.0.0.1',
      proxy: {
        '/api': { target: proxy.url, ws: true },
        ...(ton ? { '/ton': { target: ton.url, changeOrigin: true, rewrite: (p: string) => p.replace(/^\/ton/, '') } } : {}),
      },
    },
  })
  const appUrl = app.resolvedUrls?.local[0] ?? ''
  // The app asks to let the bot write after a payment; the suite's users allow it at once, unless a test asks for the prompt.
  const host = await startTelegramHost({ port: 0, appUrl, botToken: DEV_BOT_TOKEN, admin: adminForServer(server), botApi: telegram.state, writeAccess: 'allow' })
  const bot = o.live ? await runBot(botConfigFromEnv({ BOT_TOKEN: DEV_BOT_TOKEN, TELEGRAM_API_ROOT: telegram.url, AXIOM_API: server.url }), { appUrl }) : null
  const browser = await launchChromium()
  return {
    server,
    ton,
    proxy,
    appUrl,
    host,
    telegram,
    bot,
    browser,
    // Each step is tolerant, so a test that stopped the backend on purpose still closes cleanly.
    close: async () => {
      const steps: Array<() => Promise<unknown>> = [
        () => browser.close(),
        () => bot?.stop() ?? Promise.resolve(),
        () => host.close(),
        () => telegram.close(),
        () => new Promise<void>((resolve) => app.httpServer.close(() => resolve())),
        () => proxy.close(),
        () => server.close(),
      ]
      for (const step of steps) await step().catch(() => undefined)
    },
  }
}

/**
 * The whole product for one test file: started before its tests, stopped (and the build removed)
 * after them. The returned object stands for the running stack.
 */
export const useStack = (o: StackOptions = {}): Stack => {
  let running: Stack | null = null
  beforeAll(async () => {
    running = await startStack(o)
  })
  afterAll(async () => {
    await running?.close()
    removeBuild()
  })
  return new Proxy({} as Stack, {
    get: (_, key) => {
      if (!running) throw new Error('the stack is not running (use it inside a test)')
      return running[key as keyof Stack]
    },
  })
}

export const removeBuild = () => {
  if (builtDir) rmSync(builtDir, { recursive: true, force: true })
  builtDir = null
}

export interface LaunchOptions {
  readonly user: number
  readonly name?: string
  /** Telegram's language_code for the user (the app's languages: core/domain/languages.ts; pt-BR as Telegram writes it, pt-br). */
  readonly lang?: 'en' | 'ru' | 'uk' | 'es' | 'pt-br' | 'id' | 'tr' | 'fa'
  readonly start?: string
  /**
   * A t.me link to open instead of a start parameter: the host routes it as Telegram does (a direct
   * link's startapp becomes the start parameter). With `member: false`, the app registers the user.
   */
  readonly link?: string
  readonly version?: string
  /** The emulated client's theme ('light' unless given). */
  readonly scheme?: 'light' | 'dark'
  /** Registered and made a community member beforehand, so the gate does not show. */
  readonly member?: boolean
  /** Appended to the app URL inside the host (e.g. '?farm_code=X'); the host's launch keeps it. */
  readonly path?: string
  /** Launch again in this page (same browser context, so the app's local storage and cookies survive). */
  readonly page?: Page
  /** How the host answers the app's requestWriteAccess: 'ask' shows Telegram's prompt (the stack allows at once). */
  readonly writeAccess?: 'ask' | 'allow'
}

/** Signs in as `user` with signed initData (creating the user, referred by `refCode`, on first use); returns the access token. */
export const register = async (stack: Stack, user: number, name = `User ${user}`, refCode: string | null = null): Promise<string> => {
  const initData = signInitDataFor({ id: user, first_name: name }, Math.floor(Date.now() / 1000), DEV_BOT_TOKEN)
  const res = await fetch(`${stack.server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ init_data: initData, ref_code: refCode }),
  })
  if (!res.ok) throw new Error(`register ${user}: ${res.status}`)
  return ((await res.json()) as { token: string }).token
}

/**
 * Registers a user with signed initData and makes them a community member, as joining would.
 * `refCode` is what the app sends on its first launch: the start parameter.
 */
export const makeMember = async (stack: Stack, user: number, name = `User ${user}`, refCode: string | null = null) => {
  await register(stack, user, name, refCode)
  await stack.server.admin.setMember(user, true)
}

/** Calls the backend directly (not through the fault proxy) as `user`; throws on a non-2xx answer. */
export const api = async <T = unknown>(stack: Stack, user: number, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
  const token = await register(stack, user)
  const res = await fetch(`${stack.server.url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = (await res.json().catch(() => null)) as T
  if (!res.ok) throw new Error(`${method} ${path} as ${user}: ${res.status} ${JSON.stringify(json)}`)
  return json
}

/** An active bond for `user`: created through the API and paid, as the chain watcher would mark it. */
export const activeBond = async (stack: Stack, user: number, amount: number, days = 30): Promise<number> => {
  const { mint } = await api<{ mint: { id: number } }>(stack, user, 'POST', '/mint/create', { amount, days })
  await stack.server.markMintPaid(mint.id)
  return mint.id
}

export interface LaunchedApp {
  readonly page: Page
  /** The mini app inside the host's iframe. */
  readonly app: FrameLocator
  readonly errors: string[]
}

/** Opens the host emulator, which launches the app for `user` the way Telegram does. */
export const launch = async (stack: Stack, o: LaunchOptions): Promise<LaunchedApp> => {
  if (o.member ?? true) await makeMember(stack, o.user, o.name, o.start ?? null)
  const page = o.page ?? (await stack.browser.newPage({ viewport: { width: 1100, height: 900 } }))
  // Fail a step within seconds, so a test reports the step that broke rather than its own time-out.
  page.setDefaultTimeout(15_000)
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  const q = new URLSearchParams({ user: String(o.user), lang: o.lang ?? 'en', version: o.version ?? '8.0' })
  if (o.name) q.set('name', o.name)
  if (o.scheme) q.set('scheme', o.scheme)
  if (o.start) q.set('start', o.start)
  if (o.link) q.set('link', o.link)
  if (o.writeAccess) q.set('write_access', o.writeAccess)
  await page.goto(`${stack.host.url}?${q}`)
  if (o.path) {
    const iframe = await page.waitForSelector('iframe')
    const target = await iframe.evaluate((frame: HTMLIFrameElement, path) => {
      const url = new URL(frame.src)
      const [p, search = ''] = path.split('?')
      url.pathname = p || '/'
      url.search = search ? `?${search}` : ''
      if (url.toString() === frame.src) return null
      frame.src = url.toString()
      return url.toString()
    }, o.path)
    // The app's first document (at the launch URL) is being replaced: wait for the one at the path,
    // so that nothing the test runs next lands in the document that is going away.
    if (target) await (await iframe.contentFrame())!.waitForURL(target, { waitUntil: 'domcontentloaded' })
  }
  return { page, app: page.frameLocator('iframe'), errors }
}
