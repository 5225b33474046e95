import { describe, expect, it, vi } from 'vitest'

/** A fresh copy of the catalogues module: which languages are loaded is module state. */
const fresh = async () => {
  vi.resetModules()
  return import('../../ui/i18n/catalogues.ts')
}

describe('the message catalogues (English in the entry, Russian loaded on demand)', () => {
  it('speaks English to everyone before the Russian catalogue has loaded, and English speakers never need it', async () => {
    const c = await fresh()
    expect(c.translate('en', 'failed.retry')).toBe('Try again')
    expect(c.translate('ru', 'failed.retry')).toBe('Try again')
    expect(c.renderNoticeIn('ru', { tag: 'stakeCreated' })).toBe('New Stake created')
    await c.loadCatalogue('en')
    expect(c.translate('ru', 'nav.dashboard')).toBe('Dashboard')
  })

  it('speaks Russian, toasts included, once loadCatalogue("ru") has resolved', async () => {
    const c = await fresh()
    await c.loadCatalogue(c.languageFor('ru-RU'))
    expect(c.translate('ru', 'failed.title')).toBe('Что-то пошло не так')
    expect(c.translate('ru', 'nav.dashboard')).toBe('Главная')
    expect(c.renderNoticeIn('ru', { tag: 'stakeCreated' })).toBe('Новый стейк создан')
    expect(c.translate('en', 'nav.dashboard')).toBe('Dashboard')
  })

  it('fills in {vars} in either language', async () => {
    const c = await fresh()
    await c.loadScreenTexts()
    expect(c.translate('en', 'common.days', { n: 3 })).toBe('3 days')
    await c.loadCatalogue('ru')
    expect(c.translate('ru', 'common.days', { n: 3 })).toBe('3 дн.')
  })

  it("has the other screens' English once loadScreenTexts has resolved, as their routes wait for it", async () => {
    const c = await fresh()
    // The dashboard's texts are in the entry; a history text is not, and reads as its key until then.
    expect(c.translate('en', 'balance.main')).toBe('Main balance')
    expect(c.translate('en', 'history.title')).toBe('history.title')
    expect(c.hasText('operation.welcome')).toBe(false)
    await c.loadScreenTexts()
    expect(c.translate('en', 'history.title')).toBe('History')
    expect(c.hasText('operation.welcome')).toBe(true)
    expect(c.hasText('operation.no_such_text')).toBe(false)
  })

  it('takes Russian for any ru language code and English for everything else', async () => {
    const c = await fresh()
    expect(['ru', 'RU', 'ru-UA'].map(c.languageFor)).toEqual(['ru', 'ru', 'ru'])
    expect(['en', 'uk', 'de', '', null, undefined].map(c.languageFor)).toEqual(['en', 'en', 'en', 'en', 'en', 'en'])
  })
})
