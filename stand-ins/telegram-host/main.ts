/**
 * Runs the Telegram host emulator alone:
 *   node --import tsx stand-ins/telegram-host/main.ts
 * Environment: APP_URL (the mini app, default http://127.0.0.1:5173/), TG_HOST_PORT (default 8790),
 * BOT_TOKEN (default the backend's DEV_BOT_TOKEN), BOT_USERNAME and APP_SHORT_NAME (else the app's
 * VITE_BOT_USERNAME and VITE_APP_SHORT_NAME, else the dev defaults), AXIOM_DB (the backend's database,
 * for "join the community"; default .data/axiom.db).
 */
import { pathToFileURL } from 'node:url'
import { DEFAULT_DB_PATH, DEV_BOT_TOKEN } from '../../server/main.ts'
import { adminForDb } from './db-admin.ts'
import { startTelegramHost, type TelegramHostOptions } from './index.ts'

export const DEFAULT_TG_HOST_PORT = 8790

export const hostOptionsFromEnv = (env: NodeJS.ProcessEnv = process.env): TelegramHostOptions => ({
  port: env.TG_HOST_PORT ? Number(env.TG_HOST_PORT) : DEFAULT_TG_HOST_PORT,
  appUrl: env.APP_URL ?? 'http://127.0.0.1:5173/',
  botToken: env.BOT_TOKEN ?? DEV_BOT_TOKEN,
  admin: adminForDb(env.AXIOM_DB ?? DEFAULT_DB_PATH),
  ...miniAppNamesFromEnv(env),
})

/** The bot and mini app names the host emulates: the host's own settings, else the app's build settings. */
export const miniAppNamesFromEnv = (env: NodeJS.ProcessEnv = process.env): { botUsername?: string; appShortName?: string } => {
  const botUsername = env.BOT_USERNAME || env.VITE_BOT_USERNAME
  const appShortName = env.APP_SHORT_NAME || env.VITE_APP_SHORT_NAME
  return { ...(botUsername ? { botUsername } : {}), ...(appShortName ? { appShortName } : {}) }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const options = hostOptionsFromEnv()
  const host = await startTelegramHost(options)
  console.log(`Telegram host emulator on ${host.url} (app ${options.appUrl})`)
  const stop = () => void host.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
