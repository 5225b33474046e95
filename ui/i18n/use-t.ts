import { useCallback, useContext } from 'react'
import { LanguageContext } from '../app/contexts.ts'
import { type Notice, renderNotice } from '../../core/index.ts'
import { en, enNotices, type MessageKey, type Messages } from './en.ts'
import { ru, ruNotices } from './ru.ts'

export type Language = 'en' | 'ru'
export type { MessageKey }

const CATALOGUES: Record<Language, Messages> = { en, ru }

/** Russian for Russian speakers, English for everyone else (spec: English is the fallback). */
export const languageFor = (languageCode: string | null | undefined): Language =>
  languageCode?.toLowerCase().startsWith('ru') ? 'ru' : 'en'

export type Vars = Readonly<Record<string, string | number>>
export type Translate = (key: MessageKey, vars?: Vars) => string

export const translate = (language: Language, key: MessageKey, vars?: Vars): string => {
  const text = CATALOGUES[language][key] ?? en[key]
  return vars ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m)) : text
}

/** A notice (a toast) in a language: each language's table renders its tag with its parameters. */
export const renderNoticeIn = (language: Language, notice: Notice): string =>
  renderNotice(language === 'ru' ? ruNotices : enNotices, notice)

export const useLanguage = (): Language => languageFor(useContext(LanguageContext))

/** The translator for the Telegram user's language. */
export const useT = (): Translate => {
  const language = useLanguage()
  return useCallback<Translate>((key, vars) => translate(language, key, vars), [language])
}
