import { autoRetry } from '@grammyjs/auto-retry'
import { Bot } from 'grammy'
import { backendFor } from './backend.ts'
import type { BotConfig } from './config.ts'
import { balanceFeature } from './features/balance.ts'
import { bondsFeature } from './features/bonds.ts'
import { chatMembershipFeature } from './features/chat-membership.ts'
import { helpFeature } from './features/help.ts'
import { notificationsFeature } from './features/notifications.ts'
import { saleCancelFeature } from './features/sale-cancel.ts'
import { startFeature } from './features/start.ts'
import type { Language } from '../core/domain/languages.ts'
import { BOT_LANGUAGES, commandsLanguageCode, type Words } from './i18n.ts'

export interface AxiomBotOptions {
  /** The mini app's own URL (AXIOM_APP_URL), for the chat's menu button; without it the menu lists the commands. */
  readonly appUrl?: string | null
  /** The clock init data is signed with, unix seconds (tests). */
  readonly nowS?: () => number
}

/** The product's bot: one grammY Composer per feature, over the core's use cases against AXIOM_API. */
export const createAxiomBot = (config: BotConfig, options: AxiomBotOptions = {}) => {
  const bot = new Bot(config.token, { client: { apiRoot: config.apiRoot } })
  // 429s wait retry_after; 5xx and network failures are grammY's polling loop's to retry.
  bot.api.config.use(autoRetry({ maxRetryAttempts: 5, maxDelaySeconds: 60, rethrowInternalServerErrors: true, rethrowHttpErrors: true }))
  const backend = backendFor(config.api, config.token, options.nowS)
  bot.use(startFeature(config.miniAppLink), balanceFeature(backend), bondsFeature(backend, options.nowS), notificationsFeature(backend, config.api), chatMembershipFeature(config.api, config.token, options.nowS), saleCancelFeature(config.api, config.token, config.miniAppLink, options.nowS), helpFeature())
  bot.catch((err) => console.error(`bot: update ${err.ctx.update.update_id} failed: ${err.error instanceof Error ? err.error.message : err.error}`))

  /** The command list (English by default, and each other language's for its clients) and the chat's menu button. */
  const setUp = async () => {
    for (const [lang, words] of Object.entries(BOT_LANGUAGES) as Array<[Language, Words]>) {
      const commands = Object.entries(words.commands).map(([command, description]) => ({ command, description }))
      const languageCode = commandsLanguageCode(lang)
      await bot.api.setMyCommands(commands, languageCode ? { language_code: languageCode } : {})
    }
    await bot.api.setChatMenuButton({
      menu_button: options.appUrl ? { type: 'web_app', text: BOT_LANGUAGES.en.menu, web_app: { url: options.appUrl } } : { type: 'commands' },
    })
  }
  return { bot, setUp }
}
