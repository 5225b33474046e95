// Not through core/index.ts: this module is in the entry, which must not wait for the core's chunk.
import { type NoticeTable, renderNotice } from '../../core/notices.ts'
import type { Notice } from '../../core/domain/notice.ts'
import { en, enNotices, type MessageKey, type Messages } from './en.ts'

/**
 * The message catalogues, without React (the entry and the boot-failure screen use them too).
 * English is in the entry: it is the fallback and most users' language. Russian is its own chunk,
 * loaded by `loadCatalogue` at the start of the boot for a Russian-speaking user (the entry knows
 * the language from the launch parameters), in parallel with the boot steps, and installed before
 * React renders; English users never download it.
 */
export type Language = 'en' | 'ru'
export type { MessageKey }

const catalogues: Partial<Record<Language, { readonly messages: Messages; readonly notices: NoticeTable }>> = {
  en: { messages: en, notices: enNotices },
}

/** Russian for Russian speakers, English for everyone else (spec: English is the fallback). */
export const languageFor = (languageCode: string | null | undefined): Language =>
  languageCode?.toLowerCase().startsWith('ru') ? 'ru' : 'en'

/**
 * Makes a language's catalogue available. Resolves once it is installed; if its chunk cannot be
 * loaded the promise rejects and the language falls back to English.
 */
export const loadCatalogue = async (language: Language): Promise<void> => {
  if (catalogues[language]) return
  const { ru, ruNotices } = await import('./ru.ts')
  catalogues.ru = { messages: ru, notices: ruNotices }
}

export type Vars = Readonly<Record<string, string | number>>
export type Translate = (key: MessageKey, vars?: Vars) => string

export const translate = (language: Language, key: MessageKey, vars?: Vars): string => {
  const text = catalogues[language]?.messages[key] ?? en[key]
  return vars ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m)) : text
}

/** A notice (a toast) in a language: each language's table renders its tag with its parameters. */
export const renderNoticeIn = (language: Language, notice: Notice): string =>
  renderNotice((catalogues[language] ?? catalogues.en)!.notices, notice)
