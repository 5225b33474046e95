import { type Language, languageFor } from '../../../core/domain/languages.ts'
import { en } from './en.ts'
import { ru } from './ru.ts'
import { es } from './es.ts'
import { fa } from './fa.ts'
import { id } from './id.ts'
import { ptBr } from './pt-br.ts'
import { tr } from './tr.ts'
import { uk } from './uk.ts'
import type { TelegramWords } from './words.ts'

/** Each language's words for the backend's Telegram messages, one file per language next to this one. */
export const TELEGRAM_WORDS: Readonly<Record<Language, TelegramWords>> = { en, ru, uk, es, 'pt-BR': ptBr, id, tr, fa }

/** The words for a user's stored `language_code` (the app's and the bot's rule; English for any other). */
export const telegramWordsFor = (languageCode: string | null | undefined): TelegramWords => TELEGRAM_WORDS[languageFor(languageCode)]
