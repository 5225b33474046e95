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

// English's screen texts come in a chunk of their own (loadScreenTexts); Russian's are all in ru.ts.
const catalogues: Partial<Record<Language, { readonly messages: Partial<Messages>; readonly notices: NoticeTable }>> = {
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

/** The other screens' English (en-screens.ts), once loaded. */
let screenTexts: Readonly<Record<string, string>> | null = null

/**
 * Loads the English texts of the screens other than the dashboard: each of those screens' lazy
 * route waits for it with its own chunk (ui/app/routes.tsx). Resolves at once when loaded.
 */
export const loadScreenTexts = async (): Promise<void> => {
  screenTexts ??= (await import('./en-screens.ts')).enScreens
}

/** A lazily loaded part of the UI, with the screens' English (en-screens.ts) loaded alongside. */
export const withScreenTexts = <M>(part: Promise<M>): Promise<M> => Promise.all([part, loadScreenTexts()]).then(([m]) => m)

const own = (table: object | null | undefined, key: string): string | undefined =>
  table && Object.hasOwn(table, key) ? (table as Readonly<Record<string, string>>)[key] : undefined

const english = (key: string): string | undefined => own(en, key) ?? own(screenTexts, key)

/** Whether `key` names a text this app has (server-text.ts: a key from the backend); `toString` is none. */
export const hasText = (key: string): key is MessageKey => english(key) !== undefined || own(catalogues.ru?.messages, key) !== undefined

export const translate = (language: Language, key: MessageKey, vars?: Vars): string => {
  // A screen's text before its chunk arrived (never, as its route waits for it) reads as its key.
  const text = catalogues[language]?.messages[key] ?? english(key) ?? key
  return vars ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m)) : text
}

/** A notice (a toast) in a language: each language's table renders its tag with its parameters. */
export const renderNoticeIn = (language: Language, notice: Notice): string =>
  renderNotice((catalogues[language] ?? catalogues.en)!.notices, notice)
