/** The bot's settings (docs/deploy.md, "Going live on Telegram"). */
export interface BotConfig {
  /** BOT_TOKEN: the bot's token from @BotFather (the backend's too: it checks the init data the bot signs). */
  readonly token: string
  /** TELEGRAM_API_ROOT: https://api.telegram.org, or the local emulator. */
  readonly apiRoot: string
  /** AXIOM_API: the backend's origin. */
  readonly api: string
  /** AXIOM_MINI_APP_LINK: the mini app's direct link, https://t.me/<bot>/<app>. */
  readonly miniAppLink: string
  /** TELEGRAM_WEBHOOK_URL and TELEGRAM_WEBHOOK_SECRET: a webhook instead of long polling. */
  readonly webhook: { readonly url: string; readonly secret: string; readonly port: number; readonly host: string } | null
}

export const DEV_BOT_TOKEN = '7000000001:AXIOM-dev-bot-token-not-secret'

export const botConfigFromEnv = (env: NodeJS.ProcessEnv): BotConfig => {
  const url = env.TELEGRAM_WEBHOOK_URL?.trim() || ''
  const secret = env.TELEGRAM_WEBHOOK_SECRET?.trim() || ''
  if (url && !/^[A-Za-z0-9_-]{16,256}$/.test(secret)) {
    throw new Error('TELEGRAM_WEBHOOK_SECRET must be 16–256 of A-Z a-z 0-9 _ - when TELEGRAM_WEBHOOK_URL is set')
  }
  const link = (env.AXIOM_MINI_APP_LINK?.trim() || 'https://t.me/axiom_dev_bot/app').replace(/\/$/, '')
  if (!/^https:\/\/t\.me\/[A-Za-z0-9_]{4,32}\/[A-Za-z0-9_]{3,64}$/.test(link)) throw new Error('AXIOM_MINI_APP_LINK must be https://t.me/<bot>/<app>')
  return {
    token: env.BOT_TOKEN?.trim() || DEV_BOT_TOKEN,
    apiRoot: (env.TELEGRAM_API_ROOT?.trim() || 'https://api.telegram.org').replace(/\/+$/, ''),
    api: (env.AXIOM_API?.trim() || 'http://127.0.0.1:8787').replace(/\/+$/, ''),
    miniAppLink: link,
    webhook: url ? { url, secret, port: Number(env.BOT_PORT ?? 8791), host: env.BOT_HOST ?? '127.0.0.1' } : null,
  }
}

/** The mini app's direct link with a start parameter (none: the plain link). */
export const appLink = (miniAppLink: string, startParam: string | null): string => {
  if (!startParam) return miniAppLink
  const url = new URL(miniAppLink)
  url.searchParams.set('startapp', startParam)
  return url.href
}
