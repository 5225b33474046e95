/**
 * `npm start`: the whole product on one machine, offline — the reference backend (with the local
 * TON stand-ins), the app's dev server (which proxies /api, sockets included, to the backend), the
 * Telegram host emulator that opens the app the way Telegram does and serves the Bot API, and the
 * product's bot on it.
 */
import { spawn } from 'node:child_process'
import { createServer } from 'vite'
import { DEFAULT_DB_PATH, DEV_BOT_TOKEN } from '../server/main.ts'
import { adminForDb } from '../stand-ins/telegram-host/db-admin.ts'
import { startTelegramHost } from '../stand-ins/telegram-host/index.ts'
import { DEFAULT_TG_HOST_PORT, miniAppNamesFromEnv } from '../stand-ins/telegram-host/main.ts'
import { DEV_WALLET_DEFAULT_NETWORK } from '../stand-ins/ton-connect/dev-wallet.ts'

const backendPort = Number(process.env.PORT ?? 8787)
const backendUrl = `http://127.0.0.1:${backendPort}`
const tonUrl = `http://127.0.0.1:${Number(process.env.AXIOM_TON_PORT ?? 8788)}`

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

const backend = spawn(process.execPath, ['--import', 'tsx', 'stand-ins/main.ts'], {
  stdio: 'inherit',
  env: { ...process.env, PORT: String(backendPort) },
})
backend.on('exit', (code) => {
  console.error(`reference backend exited (${code})`)
  process.exit(code ?? 1)
})

let stopHost: () => Promise<void> = async () => {}
const stop = () => {
  backend.kill('SIGTERM')
  void stopHost().finally(() => process.exit(0))
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)

await waitFor(`${backendUrl}/api/maintenance/`, 60_000)
process.env.AXIOM_BACKEND ??= backendUrl
const app = await createServer({ configFile: 'vite.config.ts' })
await app.listen()
const appUrl = app.resolvedUrls?.local[0] ?? 'http://127.0.0.1:5173/'
const host = await startTelegramHost({
  port: hostPort,
  appUrl,
  botToken: process.env.BOT_TOKEN ?? DEV_BOT_TOKEN,
  admin: adminForDb(process.env.AXIOM_DB ?? DEFAULT_DB_PATH),
  ...names,
})
stopHost = () => host.close()
// The product's bot, long polling the emulator's Bot API (as it would Telegram's), on the backend.
const bot = spawn(process.execPath, ['--import', 'tsx', 'bot/main.ts'], {
  stdio: 'inherit',
  env: { ...process.env, AXIOM_API: backendUrl, AXIOM_APP_URL: process.env.AXIOM_APP_URL ?? appUrl },
})
bot.on('exit', (code) => console.error(`the bot exited (${code})`))
process.on('exit', () => bot.kill('SIGTERM'))
console.log('')
console.log(`  AXIOM reference backend   ${backendUrl}/api`)
console.log(`  Local TON (chain, bridge, dev wallet)  ${tonUrl}   (docs/local-stack.md)`)
console.log(`  AXIOM mini app            ${appUrl}   (outside Telegram it redirects to the bot, as in production)`)
console.log(`  Bot API (emulated)        ${hostUrl}/bot<token>/<method>   the backend and \`npm run bot\` use it`)
console.log('')
console.log(`  ➜ Open the app in the Telegram host emulator:  ${host.url}`)
console.log('')
