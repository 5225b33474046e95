import { createContext } from 'react'

/** The Telegram user's language_code (from `platform.launch().languageCode`). */
export const LanguageContext = createContext<string>('en')
