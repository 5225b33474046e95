import { randomBytes } from 'node:crypto'
import type { InlineQueryResultArticle } from 'grammy/types'
import type { ServerContext } from '../domain/context.ts'
import { big, getRow, str } from '../db/sql.ts'
import { httpError } from '../http/errors.ts'
import { describeFailure, failureOf } from './bot-api.ts'
import { type Language, languageFor } from '../../core/domain/languages.ts'
import { telegramWordsFor } from './words/all.ts'
import type { TelegramWords } from './words/words.ts'

/** The language the invitation is written in for a user's stored language_code (English for any other). */
export const invitationLanguage = (language: string | null): Language => languageFor(language)

/** The invitation's words in the user's language (words/<language>.ts), English for any other. */
export const invitationWords = (language: string | null): TelegramWords['invitation'] => telegramWordsFor(language).invitation

/** The mini app's direct link with a start parameter: AXIOM_MINI_APP_LINK?startapp=<param>. */
export const directLink = (miniAppLink: string, startParam: string): string => {
  const url = new URL(miniAppLink)
  url.searchParams.set('startapp', startParam)
  return url.href
}

/** The prepared invitation (an inline article): the text, the referral link, and a button that opens it. */
export const invitationArticle = (miniAppLink: string, refCode: string, language: string | null): InlineQueryResultArticle => {
  const words = invitationWords(language)
  const link = directLink(miniAppLink, refCode)
  return {
    type: 'article',
    id: randomBytes(8).toString('hex'),
    title: words.title,
    description: words.text,
    input_message_content: { message_text: `${words.text}\n${link}`, link_preview_options: { is_disabled: true } },
    reply_markup: { inline_keyboard: [[{ text: words.button, url: link }]] },
  }
}

export const SHARE_UNAVAILABLE_MSG = 'Telegram did not prepare the message; share the link instead'

/**
 * /user/share-message: Telegram's savePreparedInlineMessage for the user's invitation; its id is
 * what WebApp.shareMessage takes. When Telegram refuses, is unreachable, or no Bot API is set, the
 * answer is 424 with msg (the app then shares the link), never an invented id and never a 5xx.
 */
export const prepareShareMessage = async (ctx: ServerContext, userId: bigint): Promise<{ inline_message_id: string }> => {
  const g = ctx.telegram
  if (!g) throw httpError(424, SHARE_UNAVAILABLE_MSG)
  const row = await getRow(ctx.db, 'SELECT telegram_id, ref_code, language FROM users WHERE id = ?', userId)
  if (!row) throw httpError(404, 'User not found')
  const language = row.language === null || row.language === undefined ? null : str(row, 'language')
  try {
    const prepared = await g.api.savePreparedInlineMessage(
      Number(big(row, 'telegram_id')),
      invitationArticle(g.settings.miniAppLink, str(row, 'ref_code'), language),
      { allow_user_chats: true, allow_bot_chats: true, allow_group_chats: true, allow_channel_chats: true },
    )
    return { inline_message_id: prepared.id }
  } catch (e) {
    throw Object.assign(httpError(424, SHARE_UNAVAILABLE_MSG), { cause: `${failureOf(e)}: ${describeFailure(e)}` })
  }
}
