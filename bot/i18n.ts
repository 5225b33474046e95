import type { LanguageCode } from 'grammy/types'
import { type Language, languageFor } from '../core/domain/languages.ts'
import { en } from './i18n/en.ts'
import { ru } from './i18n/ru.ts'
import { es } from './i18n/es.ts'
import { fa } from './i18n/fa.ts'
import { id } from './i18n/id.ts'
import { ptBr } from './i18n/pt-br.ts'
import { tr } from './i18n/tr.ts'
import { uk } from './i18n/uk.ts'
import type { Words } from './i18n/words.ts'

export type { CancelledSale, Words } from './i18n/words.ts'

/** Every language's words, each in its own file next to this one. */
export const BOT_LANGUAGES: Readonly<Record<Language, Words>> = { en, ru, uk, es, 'pt-BR': ptBr, id, tr, fa }

export const wordsFor = (languageCode: string | undefined): Words => BOT_LANGUAGES[languageFor(languageCode)]

/**
 * The language_code setMyCommands takes for a language (Bot API: "a two-letter ISO 639-1 language
 * code"), under which Telegram shows its commands to every user whose language it is; English's are
 * the default (no code), for everyone else.
 */
export const commandsLanguageCode = (language: Language): LanguageCode | undefined => (language === 'en' ? undefined : (language.slice(0, 2) as LanguageCode))
