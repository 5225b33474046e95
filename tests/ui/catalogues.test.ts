import { describe, expect, it, vi } from 'vitest'
import { directionOf, type Language, LANGUAGES, languageFor } from '../../core/domain/languages.ts'
import type { NoticeTable } from '../../core/notices.ts'
import { en } from '../../ui/i18n/en.ts'
import { enScreens } from '../../ui/i18n/en-screens.ts'
import { catalogueFiles } from '../support/catalogue-files.ts'

/** A fresh copy of the catalogues module: which languages are loaded is module state. */
const fresh = async () => {
  vi.resetModules()
  return import('../../ui/i18n/catalogues.ts')
}

describe('the message catalogues (each language loaded on demand, the boot-failure screen\'s English in the entry)', () => {
  it('has only the boot-failure screen\'s English and the English notices before any catalogue has loaded', async () => {
    const c = await fresh()
    expect(c.hasCatalogue()).toBe(false)
    expect(c.translate('en', 'nav.dashboard')).toBe('nav.dashboard')
    expect(c.translate('en', 'failed.retry')).toBe('Try again')
    expect(c.translate('ru', 'failed.retry')).toBe('Try again')
    expect(c.renderNoticeIn('ru', { tag: 'stakeCreated' })).toBe('New Stake created')
    await c.loadCatalogue('en')
    expect(c.hasCatalogue()).toBe(true)
    expect(c.translate('en', 'nav.dashboard')).toBe('Dashboard')
    expect(c.translate('ru', 'nav.dashboard')).toBe('Dashboard')
  })

  it('speaks Russian, toasts included, once loadCatalogue("ru") has resolved', async () => {
    const c = await fresh()
    await c.loadCatalogue(c.languageFor('ru-RU'))
    expect(c.translate('ru', 'failed.title')).toBe('Что-то пошло не так')
    expect(c.translate('ru', 'nav.dashboard')).toBe('Главная')
    expect(c.renderNoticeIn('ru', { tag: 'stakeCreated' })).toBe('Новый стейк создан')
    // A Russian speaker downloads no English.
    expect(c.translate('en', 'nav.dashboard')).toBe('nav.dashboard')
  })

  it('fills in {vars} in either language', async () => {
    const c = await fresh()
    await c.loadCatalogue('en')
    await c.loadScreenTexts()
    expect(c.translate('en', 'common.days', { n: 3 })).toBe('3 days')
    await c.loadCatalogue('ru')
    expect(c.translate('ru', 'common.days', { n: 3 })).toBe('3 дн.')
  })

  it("has the other screens' English once loadScreenTexts has resolved, as their routes wait for it", async () => {
    const c = await fresh()
    await c.loadCatalogue('en')
    // The dashboard's texts are in English's catalogue; a history text is not, and reads as its key until then.
    expect(c.translate('en', 'balance.main')).toBe('Main balance')
    expect(c.translate('en', 'history.title')).toBe('history.title')
    expect(c.hasText('operation.welcome')).toBe(false)
    await c.loadScreenTexts()
    expect(c.translate('en', 'history.title')).toBe('History')
    expect(c.hasText('operation.welcome')).toBe(true)
    expect(c.hasText('operation.no_such_text')).toBe(false)
  })

  it('takes each language from its primary subtag, Brazilian Portuguese for any Portuguese, and English for everything else', async () => {
    const c = await fresh()
    expect(['ru', 'RU', 'ru-UA'].map(c.languageFor)).toEqual(['ru', 'ru', 'ru'])
    expect(['en', 'de', 'zh-hans', 'ar', '', null, undefined].map(c.languageFor)).toEqual(['en', 'en', 'en', 'en', 'en', 'en', 'en'])
    expect(['uk', 'es', 'es-419', 'es-MX', 'pt-br', 'pt', 'pt-PT', 'id', 'tr', 'fa', 'fa-IR'].map(c.languageFor)).toEqual(
      ['uk', 'es', 'es', 'es', 'pt-BR', 'pt-BR', 'pt-BR', 'id', 'tr', 'fa', 'fa'],
    )
    // A code that only starts like a language's is not it ("est" is Estonian's ISO 639-2, not Spanish).
    expect(['ukr', 'est', 'fas', 'turk'].map(c.languageFor)).toEqual(['en', 'en', 'en', 'en'])
    expect(LANGUAGES.map(directionOf)).toEqual(LANGUAGES.map((l) => (['fa'].includes(l) ? 'rtl' : 'ltr')))
  })
})

/** Each language's own files, read directly (the loader installs the same objects). */
const FILES = catalogueFiles
const OTHERS = LANGUAGES.filter((l): l is Exclude<Language, 'en'> => l !== 'en')
const ENGLISH: Readonly<Record<string, string>> = { ...en, ...enScreens }
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
const count = (text: string, word: RegExp) => text.match(new RegExp(word, 'g'))?.length ?? 0

describe('every language', () => {
  it.each(OTHERS)('%s has exactly English’s keys, none empty, with English’s {placeholders}', async (language) => {
    const { messages } = await FILES(language)
    expect(Object.keys(messages).sort()).toEqual(Object.keys(ENGLISH).sort())
    const wrong = Object.entries(messages).filter(([key, text]) => text.trim() === '' || placeholders(text).join() !== placeholders(ENGLISH[key]!).join())
    expect(wrong).toEqual([])
  })

  it.each(OTHERS)('%s keeps AXIOM and GRAM as they are, and says TON only where English does (the network, never the coin)', async (language) => {
    const { messages } = await FILES(language)
    const off = Object.entries(messages).filter(([key, text]) => {
      const english = ENGLISH[key]!
      return (
        count(text, /\bGRAM\b/) !== count(english, /\bGRAM\b/) ||
        count(text, /\bTON\b/) > count(english, /\bTON\b/) ||
        (count(english, /\bAXIOM\b/) > 0 && count(text, /\bAXIOM\b/) === 0)
      )
    })
    expect(off).toEqual([])
  })

  it.each(OTHERS)('%s is installed by loadCatalogue: its texts, its toasts and its error words', async (language) => {
    const c = await fresh()
    const { messages, notices } = await FILES(language)
    expect(c.translate(language, 'failed.retry')).toBe('Try again')
    await c.loadCatalogue(language)
    expect(c.translate(language, 'failed.retry')).toBe(messages['failed.retry'])
    expect(c.translate(language, 'failed.retry')).not.toBe('Try again')
    // The other screens' texts are a chunk of their own, which those screens wait for.
    expect(c.translate(language, 'history.title')).toBe('history.title')
    await c.loadScreenTexts()
    expect(c.translate(language, 'history.title')).toBe(messages['history.title'])
    expect(c.translate(language, 'history.title')).not.toBe('History')
    expect(c.renderNoticeIn(language, { tag: 'stakeCreated' })).toBe(notices.stakeCreated({ tag: 'stakeCreated' }))
    expect(c.renderNoticeIn(language, { tag: 'stakeCreated' })).not.toBe('New Stake created')
    // The other languages stay as they were: English, and not loaded.
    expect(c.translate('en', 'failed.retry')).toBe('Try again')
  })

  it('right to left, a value set into a text is isolated, so that a grouped amount or an address keeps its order', async () => {
    const c = await fresh()
    await c.loadScreenTexts()
    for (const language of LANGUAGES) {
      await c.loadCatalogue(language)
      const text = c.translate(language, 'amount.available', { amount: '1 250.75' })
      if (directionOf(language) === 'rtl') expect(text, language).toContain('\u20681 250.75\u2069')
      else expect(text, language).not.toMatch(/[\u2066-\u2069]/)
      expect(text.replace(/[\u2068\u2069]/g, ''), language).toContain('1 250.75')
    }
    expect(languageFor('fa')).toBe('fa')
  })
})
