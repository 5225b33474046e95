import { useCallback, useContext } from 'react'
import { LanguageContext } from './language-context.ts'
import { type Language, languageFor, translate, type Translate } from './catalogues.ts'

export { directionOf, type Language, languageFor, loadCatalogue, type MessageKey, renderNoticeIn, translate, type Translate, type Vars } from './catalogues.ts'

export const useLanguage = (): Language => languageFor(useContext(LanguageContext))

/** The translator for the Telegram user's language. */
export const useT = (): Translate => {
  const language = useLanguage()
  return useCallback<Translate>((key, vars) => translate(language, key, vars), [language])
}
