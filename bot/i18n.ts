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

/** A sale as POST /api/telegram/sale-cancel answers it (docs/api.md), what the message after a cancel names. */
export interface CancelledSale {
  readonly id: number
  readonly token_amount: string
  readonly address: string
  readonly from_ref_balance: boolean
}

/** What the bot says, in each of AXIOM's languages (chosen by the user's language_code; English for any other). */
export interface Words {
  readonly start: string
  readonly startWithParam: string
  readonly open: string
  readonly menu: string
  readonly help: string
  readonly balance: (b: { token: string; task: string; referral: string }) => string
  readonly noRecords: string
  readonly bond: string
  readonly stake: string
  readonly reward: string
  readonly notificationsOn: string
  readonly notificationsOff: string
  readonly notificationsUsage: string
  readonly unavailable: string
  /** The answers to a press of a sale's Cancel button (the bot's message about a sale waiting its cooling period). */
  readonly saleCancelled: (sale: CancelledSale) => string
  readonly saleCancelledShort: string
  readonly saleAlreadyCancelled: string
  readonly saleNotWaiting: string
  readonly saleNotYours: string
  readonly commands: Readonly<Record<'start' | 'balance' | 'bonds' | 'notifications' | 'help', string>>
}

/** Every language's words, each in its own file next to this one. */
export const BOT_LANGUAGES: Readonly<Record<Language, Words>> = { en, ru, uk, es, 'pt-BR': ptBr, id, tr, fa }

export const wordsFor = (languageCode: string | undefined): Words => BOT_LANGUAGES[languageFor(languageCode)]

/**
 * The language_code setMyCommands takes for a language (Bot API: "a two-letter ISO 639-1 language
 * code"), under which Telegram shows its commands to every user whose language it is; English's are
 * the default (no code), for everyone else.
 */
export const commandsLanguageCode = (language: Language): LanguageCode | undefined => (language === 'en' ? undefined : (language.slice(0, 2) as LanguageCode))
