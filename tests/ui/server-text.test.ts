import { beforeAll, describe, expect, it } from 'vitest'
import { loadCatalogue, loadScreenTexts, translate, type Translate } from '../../ui/i18n/catalogues.ts'
import { serverText } from '../../ui/i18n/server-text.ts'

const tIn =
  (language: 'en' | 'ru'): Translate =>
  (key, vars) =>
    translate(language, key, vars)

describe('serverText (a backend text sent as a key and parameters)', () => {
  // The history and tasks screens, which show these texts, load the screens' English with their chunk.
  beforeAll(() => loadScreenTexts())

  it('writes a known key in the user language, with its parameters', async () => {
    await loadCatalogue('ru')
    expect(serverText(tIn('ru'), 'operation.welcome', {}, 'Welcome balance')).toBe('Приветственный баланс')
    expect(serverText(tIn('en'), 'operation.farming_fund', { link: '4' }, 'x')).toBe('Farming link #4 funded')
  })

  it("names a bond by the user's own number when it is given, by the id otherwise", async () => {
    await loadCatalogue('ru')
    expect(serverText(tIn('ru'), 'operation.bond_cancel', { bond: '17', bond_number: 1 }, 'x')).toBe('Бонд #1 отменён, удержан штраф 10%')
    expect(serverText(tIn('en'), 'operation.bond_cancel', { bond: '17' }, 'x')).toBe('Bond #17 cancelled, 10% penalty kept')
  })

  it("translates a task's title inside a description through its key", async () => {
    await loadCatalogue('ru')
    const params = { task: 'Join the AXIOM community', task_key: 'task.title.community' }
    expect(serverText(tIn('ru'), 'operation.task_reward', params, 'x')).toBe('Задание: Вступите в сообщество AXIOM')
    expect(serverText(tIn('ru'), 'operation.task_reward', { task: 'A new task' }, 'x')).toBe('Задание: A new task')
  })

  it("shows the backend's English for no key or a key this app does not know", () => {
    expect(serverText(tIn('ru'), null, null, 'Goodwill after the outage')).toBe('Goodwill after the outage')
    expect(serverText(tIn('ru'), 'operation.from_a_newer_backend', { a: '1' }, 'Newer text')).toBe('Newer text')
    expect(serverText(tIn('ru'), 'toString', {}, 'Fallback')).toBe('Fallback')
  })
})
