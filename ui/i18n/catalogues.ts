// Not through core/index.ts: this module is in the entry, which must not wait for the core's chunk.
import { ENGLISH_NOTICES, type NoticeTable, renderNotice } from '../../core/notices.ts'
import type { Notice } from '../../core/domain/notice.ts'
import { directionOf, type Language, LANGUAGES, languageFor } from '../../core/domain/languages.ts'
import type { MessageKey, Messages } from './en.ts'
import { enBoot } from './en-boot.ts'

/**
 * The message catalogues, without React (the entry and the boot-failure screen use them too).
 * Every language is a chunk of its own (en.ts, ru.ts, uk.ts, es.ts, pt-br.ts, id.ts, tr.ts, fa.ts;
 * the entry keeps only the boot-failure screen's English, en-boot.ts), loaded by `loadCatalogue` at
 * the start of the boot for the user's language (the entry knows it from the launch parameters), in
 * parallel with the boot steps, and installed before React renders; nobody downloads a language
 * they do not read. English's also stands in for a language whose chunk could not load.
 */
export { directionOf, type Language, LANGUAGES, languageFor }
export type { MessageKey }

/** A language's first screens' texts (each file is typed `BootMessages`, so a missing key does not compile), and its toasts. */
interface Catalogue {
  readonly messages: Partial<Messages>
  readonly notices: NoticeTable
}

// Every language's other screens' texts come in a chunk of their own (loadScreenTexts, screen-text-chunks.ts).
const catalogues: Partial<Record<Language, Catalogue>> = {}

/** Each language's chunk: one dynamic import apiece, so that each is a chunk of its own. */
const CHUNKS: { readonly [L in Language]: () => Promise<Catalogue> } = {
  en: () => import('./en.ts').then((m) => ({ messages: m.en, notices: m.enNotices })),
  ru: () => import('./ru.ts').then((m) => ({ messages: m.ru, notices: m.ruNotices })),
  uk: () => import('./uk.ts').then((m) => ({ messages: m.uk, notices: m.ukNotices })),
  es: () => import('./es.ts').then((m) => ({ messages: m.es, notices: m.esNotices })),
  'pt-BR': () => import('./pt-br.ts').then((m) => ({ messages: m.ptBr, notices: m.ptBrNotices })),
  id: () => import('./id.ts').then((m) => ({ messages: m.id, notices: m.idNotices })),
  tr: () => import('./tr.ts').then((m) => ({ messages: m.tr, notices: m.trNotices })),
  fa: () => import('./fa.ts').then((m) => ({ messages: m.fa, notices: m.faNotices })),
}

/** The user's language, as the entry installed it (English until then). */
let current: Language = 'en'
/** Whether a screen beyond the first has asked for its texts: a language installed later brings its own at once. */
let screensWanted = false
/** The other screens' texts loaded so far, by language. */
const screenTexts: Partial<Record<Language, Readonly<Record<string, string>>>> = {}

/** Loads `language`'s other screens' texts; if its chunk cannot be loaded, English's stand in. */
const loadScreensOf = async (language: Language): Promise<void> => {
  if (screenTexts[language]) return
  try {
    const { SCREEN_CHUNKS } = await import('./screen-text-chunks.ts')
    screenTexts[language] = await SCREEN_CHUNKS[language]()
  } catch (error) {
    if (language === 'en') throw error
    await loadScreensOf('en')
  }
}

/**
 * Makes a language's catalogue available. Resolves once it is installed; if its chunk cannot be
 * loaded the promise rejects and the language falls back to English.
 */
export const loadCatalogue = async (language: Language): Promise<void> => {
  current = language
  try {
    catalogues[language] ??= await CHUNKS[language]()
  } catch (error) {
    // English stands in for a language that could not load (its texts and its notices).
    if (language !== 'en') catalogues.en ??= await CHUNKS.en().catch(() => undefined)
    throw error
  }
  if (screensWanted) await loadScreensOf(language)
}

/** Whether the app has words to speak: the user's language's catalogue, or English's standing in for it. */
export const hasCatalogue = (): boolean => catalogues[current] !== undefined || catalogues.en !== undefined

export type Vars = Readonly<Record<string, string | number>>
export type Translate = (key: MessageKey, vars?: Vars) => string

/**
 * Loads the texts of the screens other than the dashboard's first view, in the user's language: each
 * of those screens' lazy route waits for it with its own chunk (ui/app/routes.tsx). Resolves at once
 * when loaded.
 */
export const loadScreenTexts = async (): Promise<void> => {
  screensWanted = true
  await loadScreensOf(current)
}

/** A lazily loaded part of the UI, with the screens' texts loaded alongside. */
export const withScreenTexts = <M>(part: Promise<M>): Promise<M> => Promise.all([part, loadScreenTexts()]).then(([m]) => m)

const own = (table: object | null | undefined, key: string): string | undefined =>
  table && Object.hasOwn(table, key) ? (table as Readonly<Record<string, string>>)[key] : undefined

const english = (key: string): string | undefined => own(catalogues.en?.messages, key) ?? own(screenTexts.en, key) ?? own(enBoot, key)

/** Whether `key` names a text this app has (server-text.ts: a key from the backend); `toString` is none. */
export const hasText = (key: string): key is MessageKey =>
  english(key) !== undefined ||
  Object.values(catalogues).some((c) => own(c.messages, key) !== undefined) ||
  Object.values(screenTexts).some((table) => own(table, key) !== undefined)

/**
 * Right to left (Farsi), each value set into a text is an isolate of its own (U+2068 FIRST STRONG
 * ISOLATE … U+2069 POP DIRECTIONAL ISOLATE): an amount grouped with spaces ("1 250.75"), a signed
 * figure or an address keeps its left-to-right order inside the right-to-left sentence, and a
 * Farsi value (a task's name) stays right to left. The marks take no space on screen.
 */
const isolated = (language: Language, value: string): string => (directionOf(language) === 'rtl' ? `\u2068${value}\u2069` : value)

export const translate = (language: Language, key: MessageKey, vars?: Vars): string => {
  // A screen's text before its chunk arrived (never, as its route waits for it) reads as its key.
  const text = catalogues[language]?.messages[key] ?? own(screenTexts[language], key) ?? english(key) ?? key
  return vars ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? isolated(language, String(vars[name])) : m)) : text
}

/** A notice (a toast) in a language: each language's table renders its tag with its parameters. */
export const renderNoticeIn = (language: Language, notice: Notice): string =>
  renderNotice((catalogues[language] ?? catalogues.en)?.notices ?? ENGLISH_NOTICES, notice)
