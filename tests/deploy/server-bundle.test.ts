import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_BOT_TOKEN } from '../../server/main.ts'
import { createBotApiState, startBotApiServer } from '../../stand-ins/telegram-host/bot-api.ts'
// @ts-expect-error: a plain .mjs script (it runs in the image before anything else is there)
import { buildServer } from '../../scripts/build-server.mjs'

/**
 * The image's build step, proven without Docker: scripts/build-server.mjs (what deploy/Dockerfile
 * runs) bundles the backend, the bot and the operator's commands here, and the bundles are started
 * with plain `node` (no tsx, no TypeScript loader, NODE_ENV unset), as the image's CMD starts them.
 */

const root = new URL('../../', import.meta.url)
const rootPackage = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { dependencies: Record<string, string> }
const serverPackage = JSON.parse(readFileSync(new URL('deploy/server-package.json', root), 'utf8')) as { dependencies: Record<string, string> }

let out = ''
let metafile: { outputs: Record<string, { imports: Array<{ path: string; external?: boolean }> }> }
const children: ChildProcess[] = []

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'axiom-server-bundle-'))
  metafile = await buildServer(out)
  // The bundles' packages, found as the image finds its node_modules beside dist-server/.
  symlinkSync(new URL('node_modules', root), join(out, 'node_modules'), 'dir')
}, 60_000)

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM')
  if (out) rmSync(out, { recursive: true, force: true })
})

/** `node <file>` with only the environment given (and PATH): no NODE_OPTIONS, no loader. */
const run = (file: string, env: Record<string, string>, args: string[] = []) => {
  const child = spawn(process.execPath, [join(out, file), ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()))
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()))
  const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)))
  return { child, exited, out: () => stdout, err: () => stderr }
}

describe('the bundled backend (deploy/Dockerfile)', () => {
  it('imports only the packages deploy/server-package.json installs, at the ranges package.json gives them', () => {
    const imported = new Set<string>()
    for (const output of Object.values(metafile.outputs)) {
      for (const i of output.imports) {
        if (!i.external || i.path.startsWith('node:')) continue
        imported.add(i.path.startsWith('@') ? i.path.split('/').slice(0, 2).join('/') : i.path.split('/')[0]!)
      }
    }
    expect([...imported].sort()).toEqual(Object.keys(serverPackage.dependencies).sort())
    for (const [name, range] of Object.entries(serverPackage.dependencies)) expect(range, name).toBe(rootPackage.dependencies[name])
    // Nothing of the mini app's, nor a TypeScript runner.
    for (const name of ['react', 'react-dom', 'vite', '@tonconnect/ui', '@tonconnect/sdk', 'lightweight-charts', 'mobx', 'tsx', '@ton/sandbox']) {
      expect(serverPackage.dependencies).not.toHaveProperty(name)
    }
  })

  it('starts with plain node, NODE_ENV unset, and answers /health and /ready', async () => {
    const server = run('main.mjs', { AXIOM_DB: ':memory:', PORT: '0', HOST: '127.0.0.1', PRICE_TICK_MS: '60000' })
    let url = ''
    for (let i = 0; i < 200 && !url; i++) {
      url = /on (http:\/\/127\.0\.0\.1:\d+)\/api/.exec(server.out())?.[1] ?? ''
      if (!url) {
        if (server.child.exitCode !== null) throw new Error(`the bundle exited: ${server.err()}`)
        await new Promise((r) => setTimeout(r, 50))
      }
    }
    expect(url, server.err()).not.toBe('')
    const health = await fetch(`${url}/health`)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: 'ok' })
    expect((await fetch(`${url}/ready`)).status).toBe(200)
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
  })

  it("keeps production's refusal: with NODE_ENV=production and no secrets it prints one line and exits 1", async () => {
    const server = run('main.mjs', { NODE_ENV: 'production', AXIOM_DB: ':memory:', PORT: '0', HOST: '127.0.0.1' })
    expect(await server.exited).toBe(1)
    expect(server.err()).toMatch(/^AXIOM refuses to start: /)
  })

  it("the bot runs with plain node against a Bot API (the emulator's), and the operator commands answer", async () => {
    const telegram = await startBotApiServer(createBotApiState({ token: DEV_BOT_TOKEN, botUsername: 'axiom_dev_bot', botName: 'AXIOM', communityChat: '@axiom_community' }))
    try {
      const bot = run('bot.mjs', { BOT_TOKEN: DEV_BOT_TOKEN, TELEGRAM_API_ROOT: telegram.url, AXIOM_API: 'http://127.0.0.1:9', AXIOM_MINI_APP_LINK: 'https://t.me/axiom_dev_bot/app' })
      await expect.poll(() => bot.out(), { timeout: 15_000 }).toMatch(/^AXIOM bot on /)
      bot.child.kill('SIGTERM')
      await bot.exited
      expect(bot.err()).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find (module|package)/)
    } finally {
      await telegram.close()
    }
    const admin = run('admin.mjs', { AXIOM_DB: ':memory:' }, ['help'])
    expect(await admin.exited).toBe(0)
    expect(admin.out()).toMatch(/price set <ton>/)
  })
})
