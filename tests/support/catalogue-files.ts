import type { Language } from '../../core/domain/languages.ts'
import type { NoticeTable } from '../../core/notices.ts'
import type { Messages } from '../../ui/i18n/en.ts'

/** A language's whole catalogue as its files hold it: the first screens' texts and the other screens' chunk, with its toasts. */
export interface CatalogueFiles {
  readonly messages: Messages
  readonly notices: NoticeTable
}

const FILES: { readonly [L in Language]: () => Promise<CatalogueFiles> } = {
  en: async () => {
    const [boot, screens] = await Promise.all([import('../../ui/i18n/en.ts'), import('../../ui/i18n/en-screens.ts')])
    return { messages: { ...boot.en, ...screens.enScreens }, notices: boot.enNotices }
  },
  ru: async () => {
    const [boot, screens] = await Promise.all([import('../../ui/i18n/ru.ts'), import('../../ui/i18n/ru-screens.ts')])
    return { messages: { ...boot.ru, ...screens.ruScreens }, notices: boot.ruNotices }
  },
  uk: async () => {
    const [boot, screens] = await Promise.all([import('../../ui/i18n/uk.ts'), import('../../ui/i18n/uk-screens.ts')])
    return { messages: { ...boot.uk, ...screens.ukScreens }, notices: boot.ukNotices }
  },
  es: async () => {
    const [boot, screens] = await Promise.all([import('../../ui/i18n/es.ts'), import('../../ui/i18n/es-screens.ts')])
    return { messages: { ...boot.es, ...screens.esScreens }, notices: boot.esNotices }
  },
  'pt-BR': async () => {
    const [boot, screens] = await Promise.all([import('../../ui/i18n/pt-br.ts'), import('../../ui/i18n/pt-br-screens.ts')])
    return { messages: { ...boot.ptBr, ...screens.ptBrScreens }, notices: boot.ptBrNotices }
  },
  id: async () => {
    const [boot, screens] = await Promise.all([import('../../ui/i18n/id.ts'), import('../../ui/i18n/id-screens.ts')])
    return { messages: { ...boot.id, ...screens.idScreens }, notices: boot.idNotices }
  },
  tr: async () => {
    const [boot, screens] = await Promise.all([import('../../ui/i18n/tr.ts'), import('../../ui/i18n/tr-screens.ts')])
    return { messages: { ...boot.tr, ...screens.trScreens }, notices: boot.trNotices }
  },
  fa: async () => {
    const [boot, screens] = await Promise.all([import('../../ui/i18n/fa.ts'), import('../../ui/i18n/fa-screens.ts')])
    return { messages: { ...boot.fa, ...screens.faScreens }, notices: boot.faNotices }
  },
}

/** `language`'s whole catalogue, read from its two files. */
export const catalogueFiles = (language: Language): Promise<CatalogueFiles> => FILES[language]()
