/**
 * `npm run bot`: the product's bot (docs/deploy.md, "Going live on Telegram").
 * Environment: BOT_TOKEN, TELEGRAM_API_ROOT, AXIOM_API, AXIOM_MINI_APP_LINK, AXIOM_APP_URL (the
 * menu button), and for a webhook TELEGRAM_WEBHOOK_URL, TELEGRAM_WEBHOOK_SECRET, BOT_PORT, BOT_HOST.
 */
import { pathToFileURL } from 'node:url'
import { botConfigFromEnv } from './config.ts'
import { runBot } from './run.ts'

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const config = botConfigFromEnv(process.env)
  const running = await runBot(config, { appUrl: process.env.AXIOM_APP_URL || null })
  console.log(`AXIOM bot on ${config.apiRoot} (${running.mode}${running.url ? ` at ${running.url}` : ''}), backend ${config.api}`)
  let stopping = false
  // Another consumer took the updates (Telegram's 409): this process ends, as only one may run.
  void running.done.then(() => {
    if (!stopping) process.exit(1)
  })
  const stop = () => {
    stopping = true
    // stop() resolves also when the Bot API is already gone (the emulator closed first).
    void running.stop().then(() => {
      console.log('AXIOM bot stopped')
      process.exit(0)
    })
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
