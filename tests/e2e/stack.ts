import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sign } from '@telegram-apps/init-data-node'
import type { Browser, FrameLocator, Page } from 'playwright-core'
import { build, preview, type PreviewServer } from 'vite'
import { DEV_BOT_TOKEN, type RunningServer, startServer } from '../../server/main.ts'
import { type RunningTelegramHost, startTelegramHost } from '../../server/telegram-host/index.ts'
import { launchChromium } from '../support/chromium.ts'
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.ts'

/**
 * The whole product for a browser test: the reference backend (in-memory), a fault proxy in front
 * of it, the production build of the app served by vite preview, the Telegram host emulator, and
 * Debian's Chromium.
 */
export interface Stack {
  readonly server: RunningServer
  readonly proxy: FaultProxy
  readonly appUrl: string
  readonly host: RunningTelegramHost
  readonly browser: Browser
  close(): Promise<void>
}

let builtDir: string | null = null

/** Builds the app once per test run. */
const buildApp = async (): Promise<string> => {
  if (builtDir) return builtDir
  const dir = mkdtempSync(join(tmpdir(), 'axiom-e2e-dist-'))
  await build({ configFile: 'vite.config.ts', logLevel: 'warn', build: { outDir: dir, emptyOutDir: true } })
  builtDir = dir
  return dir
}

export const startStack = async (): Promise<Stack> => {
  const server = await startServer({ port: 0, dbPath: ':memory:', priceTickMs: 500 })
  const proxy = await startFaultProxy(server.url)
  const outDir = await buildApp()
  const app: PreviewServer = await preview({
    configFile: 'vite.config.ts',
    logLevel: 'warn',
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1', proxy: { '/api': { target: proxy.url, ws: true } } },
  })
  const appUrl = app.resolvedUrls?.local[0] ?? ''
  const host = await startTelegramHost({ port: 0, appUrl, botToken: DEV_BOT_TOKEN, admin: server.admin })
  const browser = await launchChromium()
  return {
    server,
    proxy,
    appUrl,
    host,
    browser,
    close: async () => {
      await browser.close()
      await host.close()
      await new Promise<void>((resolve) => app.httpServer.close(() => resolve()))
      await proxy.close()
      await server.close()
    },
  }
}

export const removeBuild = () => {
  if (builtDir) rmSync(builtDir, { recursive: true, force: true })
  builtDir = null
}

export interface LaunchOptions {
  readonly user: number
  readonly name?: string
  readonly lang?: 'en' | 'ru'
  readonly start?: string
  readonly version?: string
  /** Registered and made a community member beforehand, so the gate does not show. */
  readonly member?: boolean
  /** Appended to the app URL inside the host (e.g. '?farm_code=X'); the host's launch keeps it. */
  readonly path?: string
}

/** Registers a user with signed initData and makes them a community member, as joining would. */
export const makeMember = async (stack: Stack, user: number, name = `User ${user}`) => {
  const initData = sign({ user: { id: user, first_name: name } }, DEV_BOT_TOKEN, new Date())
  const res = await fetch(`${stack.server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ init_data: initData, ref_code: null }),
  })
  if (!res.ok) throw new Error(`register ${user}: ${res.status}`)
  stack.server.admin.setMember(user, true)
}

export interface LaunchedApp {
  readonly page: Page
  /** The mini app inside the host's iframe. */
  readonly app: FrameLocator
  readonly errors: string[]
}

/** Opens the host emulator, which launches the app for `user` the way Telegram does. */
export const launch = async (stack: Stack, o: LaunchOptions): Promise<LaunchedApp> => {
  if (o.member ?? true) await makeMember(stack, o.user, o.name)
  const page = await stack.browser.newPage({ viewport: { width: 1100, height: 900 } })
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  const q = new URLSearchParams({ user: String(o.user), lang: o.lang ?? 'en', version: o.version ?? '8.0' })
  if (o.name) q.set('name', o.name)
  if (o.start) q.set('start', o.start)
  await page.goto(`${stack.host.url}?${q}`)
  if (o.path) {
    await page.waitForSelector('iframe')
    await page.evaluate((path) => {
      const frame = document.querySelector('iframe') as HTMLIFrameElement
      const url = new URL(frame.src)
      const [p, search = ''] = path.split('?')
      url.pathname = p || '/'
      url.search = search ? `?${search}` : ''
      frame.src = url.toString()
    }, o.path)
  }
  return { page, app: page.frameLocator('iframe'), errors }
}
