import { createServer, type Server } from 'node:http'
import { webhookCallback } from 'grammy'
import { createAxiomBot, type AxiomBotOptions } from './bot.ts'
import type { BotConfig } from './config.ts'

/**
 * The updates the bot asks for. `chat_member` is never sent unless asked for by name (and only to an
 * administrator of the chat); `my_chat_member` says the user blocked or unblocked the bot.
 */
export const ALLOWED_UPDATES = ['message', 'callback_query', 'chat_member', 'my_chat_member'] as const

/** How long stop() waits for Telegram to confirm the last updates handled, before it lets go. */
export const STOP_CONFIRM_MS = 5_000

export interface RunningBot {
  /** 'polling', or the webhook's local URL. */
  readonly mode: 'polling' | 'webhook'
  readonly url: string | null
  /** Settles when the bot stops consuming updates: stop(), or Telegram ending the polling (409: another consumer). */
  readonly done: Promise<void>
  isRunning(): boolean
  /**
   * Stops consuming updates, and resolves (never rejects) once stopped: also when the Bot API is
   * already gone (the local emulator closed first) or does not answer. Calling it again waits for the same stop.
   */
  stop(): Promise<void>
}

/**
 * Runs the bot: long polling by default; with a webhook configured, an HTTP server that refuses a
 * request without the right X-Telegram-Bot-Api-Secret-Token (401), after setWebhook with that secret.
 * One consumer per token: Telegram answers a second poller, or polling while a webhook is set, with
 * 409, so run one bot process (docs/deploy.md).
 */
export const runBot = async (config: BotConfig, options: AxiomBotOptions = {}): Promise<RunningBot> => {
  const { bot, setUp } = createAxiomBot(config, options)
  await bot.init()
  await setUp()
  if (!config.webhook) {
    let polling = true
    const done = bot
      .start({ allowed_updates: ALLOWED_UPDATES })
      .catch((e: unknown) => {
        console.error(`bot: polling stopped: ${e instanceof Error ? e.message : e}`)
      })
      .finally(() => {
        polling = false
      })
    let stopping: Promise<void> | null = null
    const stop = async () => {
      if (bot.isRunning()) {
        // grammY's stop aborts the long poll, then tells Telegram the offset of the last update
        // handled (one more getUpdates). With the Bot API gone that call fails (ECONNREFUSED): the
        // bot stops all the same, and Telegram sends the unconfirmed updates to the next poller.
        let timer: ReturnType<typeof setTimeout> | undefined
        const late = new Promise<'late'>((resolve) => {
          timer = setTimeout(() => resolve('late'), STOP_CONFIRM_MS)
        })
        const confirmed = await Promise.race([bot.stop().then(() => 'confirmed' as const, (e: unknown) => e), late]).finally(() => clearTimeout(timer))
        if (confirmed !== 'confirmed') {
          const why = confirmed === 'late' ? `no answer within ${STOP_CONFIRM_MS / 1000} s` : confirmed instanceof Error ? confirmed.message : String(confirmed)
          console.error(`bot: stopped without confirming the last updates to the Bot API (${why})`)
        }
      }
      await done
    }
    return {
      mode: 'polling',
      url: null,
      done,
      isRunning: () => polling,
      stop: () => (stopping ??= stop()),
    }
  }
  const hook = config.webhook
  const handle = webhookCallback(bot, 'http', { secretToken: hook.secret })
  const server: Server = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end()
      return
    }
    void Promise.resolve(handle(req, res)).catch(() => {
      if (!res.headersSent) res.writeHead(500).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(hook.port, hook.host, resolve))
  await bot.api.setWebhook(hook.url, { secret_token: hook.secret, allowed_updates: ALLOWED_UPDATES })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : hook.port
  let open = true
  const closed = new Promise<void>((resolve) => server.once('close', () => resolve()))
  return {
    mode: 'webhook',
    url: `http://${hook.host}:${port}`,
    done: closed,
    isRunning: () => open,
    stop: async () => {
      open = false
      server.close()
      server.closeAllConnections()
      await closed
    },
  }
}
