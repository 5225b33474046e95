/**
 * `npm start`: the whole product on one machine, offline — the reference backend (with the local
 * TON stand-ins), the app's dev server (which proxies /api, sockets included, to the backend), the
 * Telegram host emulator that opens the app the way Telegram does and serves the Bot API, and the
 * product's bot on it.
 *
 * Ctrl-C (SIGINT, which the terminal sends to every process of the group) or SIGTERM stops them in
 * the reverse order of their start, each after the one that depends on it: the bot (it polls the
 * emulator's Bot API and calls the backend), the emulator, the app's dev server, the backend with the
 * local TON; each is named as it stops, and the script exits 0.
 *
 * Ports: PORT (backend), AXIOM_TON_PORT (local TON), TG_HOST_PORT (emulator), APP_PORT (the app; by
 * default vite's 5173, or the next free one).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer, type ViteDevServer } from 'vite'
import { DEFAULT_DB_PATH, DEV_BOT_TOKEN } from '../server/main.ts'
import { adminForDb } from '../stand-ins/telegram-host/db-admin.ts'
import { startTelegramHost, type RunningTelegramHost } from '../stand-ins/telegram-host/index.ts'
import { DEFAULT_TG_HOST_PORT, miniAppNamesFromEnv } from '../stand-ins/telegram-host/main.ts'
import { DEV_WALLET_DEFAULT_NETWORK } from '../stand-ins/ton-connect/dev-wallet.ts'

const backendPort = Number(process.env.PORT ?? 8787)
const backendUrl = `http://127.0.0.1:${backendPort}`
const tonUrl = `http://127.0.0.1:${Number(process.env.AXIOM_TON_PORT ?? 8788)}`

// The local chain makes a block every 400 ms, mainnet's cadence since Catchain 2.0, so what the app
// shows takes the time it takes live (AXIOM_TON_BLOCK_MS=0: a block per message, at once).
process.env.AXIOM_TON_BLOCK_MS ??= '400'
// The app reads the chain and finds the dev wallet through its own origin (vite proxies /ton).
process.env.AXIOM_TON ??= tonUrl
process.env.VITE_TON_V4_ENDPOINT ??= '/ton'
process.env.VITE_TON_WALLETS_LIST ??= '/ton/wallets-v2.json'
// The app pins the network the dev wallet claims (AXIOM_TON_NETWORK, mainnet's id by default).
process.env.VITE_TON_NETWORK ??= process.env.AXIOM_TON_NETWORK || DEV_WALLET_DEFAULT_NETWORK
// The app's links and the host emulator name the same bot and mini app.
if (process.env.BOT_USERNAME) process.env.VITE_BOT_USERNAME ??= process.env.BOT_USERNAME
if (process.env.APP_SHORT_NAME) process.env.VITE_APP_SHORT_NAME ??= process.env.APP_SHORT_NAME

const waitFor = async (url: string, timeoutMs: number) => {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    try {
      const res = await fetch(url)
      if (res.ok) return
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`)
}

const hostPort = Number(process.env.TG_HOST_PORT ?? DEFAULT_TG_HOST_PORT)
const hostUrl = `http://127.0.0.1:${hostPort}`
const names = miniAppNamesFromEnv()
// The backend and the bot talk to the emulator's Bot API exactly as to Telegram's.
process.env.TELEGRAM_API_ROOT ??= hostUrl
process.env.AXIOM_COMMUNITY_CHAT ??= '@axiom_community'
process.env.AXIOM_MINI_APP_LINK ??= `https://t.me/${names.botUsername ?? 'axiom_dev_bot'}/${names.appShortName ?? 'app'}`

/** Resolves when `child` has exited (at once if it already has); after `killAfterMs`, it is killed. */
const exited = (child: ChildProcess, killAfterMs: number): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
  })

let stopping = false
let bot: ChildProcess | null = null
let host: RunningTelegramHost | null = null
let app: ViteDevServer | null = null

const backend = spawn(process.execPath, ['--import', 'tsx', 'stand-ins/main.ts'], {
  stdio: 'inherit',
  env: { ...process.env, PORT: String(backendPort) },
})
backend.on('exit', (code) => {
  if (stopping) return
  console.error(`reference backend exited (${code})`)
  process.exit(code ?? 1)
})

/** Each part stops after what depends on it: the bot, the emulator (its Bot API), the app, the backend. */
const stop = async () => {
  if (stopping) return
  stopping = true
  console.log('\nStopping AXIOM:')
  const step = async (what: string, run: () => Promise<void>) => {
    try {
      await run()
      console.log(`  stopped: ${what}`)
    } catch (e) {
      console.error(`  ${what} did not stop cleanly: ${e instanceof Error ? e.message : e}`)
    }
  }
  if (bot) {
    const b = bot
    await step('the bot', async () => {
      b.kill('SIGTERM')
      await exited(b, 10_000)
    })
  }
  if (host) await step('the Telegram host emulator and its Bot API', () => host!.close())
  if (app) await step('the mini app (vite)', () => app!.close())
  await step('the reference backend and the local TON', async () => {
    backend.kill('SIGTERM')
    await exited(backend, 10_000)
  })
  process.exit(0)
}
process.on('SIGINT', () => void stop())
process.on('SIGTERM', () => void stop())

await waitFor(`${backendUrl}/api/maintenance/`, 60_000)
process.env.AXIOM_BACKEND ??= backendUrl
app = await createServer({ configFile: 'vite.config.ts', ...(process.env.APP_PORT ? { server: { port: Number(process.env.APP_PORT), strictPort: true } } : {}) })
await app.listen()
const appUrl = app.resolvedUrls?.local[0] ?? 'http://127.0.0.1:5173/'
host = await startTelegramHost({
  port: hostPort,
  appUrl,
  botToken: process.env.BOT_TOKEN ?? DEV_BOT_TOKEN,
  admin: adminForDb(process.env.AXIOM_DB ?? DEFAULT_DB_PATH),
  ...names,
})
// The product's bot, long polling the emulator's Bot API (as it would Telegram's), on the backend.
bot = spawn(process.execPath, ['--import', 'tsx', 'bot/main.ts'], {
  stdio: 'inherit',
  env: { ...process.env, AXIOM_API: backendUrl, AXIOM_APP_URL: process.env.AXIOM_APP_URL ?? appUrl },
})
bot.on('exit', (code) => {
  if (!stopping) console.error(`the bot exited (${code})`)
})
process.on('exit', () => bot?.kill('SIGTERM'))
console.log('')
console.log(`  AXIOM reference backend   ${backendUrl}/api`)
console.log(`  Local TON (chain, bridge, dev wallet)  ${tonUrl}   (docs/local-stack.md)`)
console.log(`  AXIOM mini app            ${appUrl}   (outside Telegram it redirects to the bot, as in production)`)
console.log(`  Bot API (emulated)        ${hostUrl}/bot<token>/<method>   the backend and \`npm run bot\` use it`)
console.log('')
console.log(`  ➜ Open the app in the Telegram host emulator:  ${host.url}`)
console.log('')
