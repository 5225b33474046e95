import type { Language } from '../../core/domain/languages.ts'

/**
 * Each language's other screens' texts (its `-screens.ts`), one dynamic import apiece, so that each
 * is a chunk of its own. This table is itself a chunk (catalogues.ts imports it on the first screen
 * text asked for, after the first paint): its eight imports were bytes of the entry.
 */
export const SCREEN_CHUNKS: { readonly [L in Language]: () => Promise<Readonly<Record<string, string>>> } = {
  en: () => import('./en-screens.ts').then((m) => m.enScreens),
  ru: () => import('./ru-screens.ts').then((m) => m.ruScreens),
  uk: () => import('./uk-screens.ts').then((m) => m.ukScreens),
  es: () => import('./es-screens.ts').then((m) => m.esScreens),
  'pt-BR': () => import('./pt-br-screens.ts').then((m) => m.ptBrScreens),
  id: () => import('./id-screens.ts').then((m) => m.idScreens),
  tr: () => import('./tr-screens.ts').then((m) => m.trScreens),
  fa: () => import('./fa-screens.ts').then((m) => m.faScreens),
}
