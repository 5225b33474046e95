/**
 * The languages AXIOM speaks, in the app, the bot and the backend's Telegram messages, and how a
 * Telegram user's `language_code` (an IETF tag: "en", "pt-br", "es-419", "fa") picks one. One rule
 * for the three, so that the app, the bot and the notices speak to a user in the same language.
 * English is the fallback for every other code. A module with no imports: the app's entry holds it.
 */
export const LANGUAGES = ['en', 'ru', 'uk', 'es', 'pt-BR', 'id', 'tr', 'fa'] as const
export type Language = (typeof LANGUAGES)[number]

/**
 * A code's primary subtag to its language. Every Spanish ("es", "es-419", "es-MX") reads the one
 * Spanish catalogue, written in a neutral Latin American register. Bare "pt" reads Brazilian
 * Portuguese: Telegram's one official Portuguese language pack is Brazilian ("pt-br"), so a "pt"
 * comes from a device locale or an unofficial pack, and Brazilian reads far more easily than English
 * to a reader of European Portuguese, which has no catalogue of its own.
 */
const BY_PRIMARY_SUBTAG: Readonly<Record<string, Language>> = {
  en: 'en',
  ru: 'ru',
  uk: 'uk',
  es: 'es',
  pt: 'pt-BR',
  id: 'id',
  tr: 'tr',
  fa: 'fa',
}

/** The language for a Telegram `language_code`: its primary subtag's, English for any other. */
export const languageFor = (languageCode: string | null | undefined): Language => {
  const primary = languageCode?.trim().toLowerCase().split(/[-_]/)[0] ?? ''
  return Object.hasOwn(BY_PRIMARY_SUBTAG, primary) ? BY_PRIMARY_SUBTAG[primary]! : 'en'
}

/** The languages written right to left: Farsi. */
const RIGHT_TO_LEFT: ReadonlySet<string> = new Set(['fa'])

/** The writing direction of a language. */
export const directionOf = (language: Language): 'ltr' | 'rtl' => (RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr')
