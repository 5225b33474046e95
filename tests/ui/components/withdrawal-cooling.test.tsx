import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { beforeAll, describe, expect, it } from 'vitest'
import { LanguageContext } from '../../../ui/app/contexts.ts'
import { WithdrawalRow } from '../../../ui/features/history/history-screen.tsx'
import { loadCatalogue, loadScreenTexts } from '../../../ui/i18n/catalogues.ts'
import { formatDateTime } from '../../../ui/lib/format.ts'
import { toId, type Withdrawal } from '../../../core/index.ts'

/** The withdraw history's row for a sale to a new address, waiting its cooling period, rendered as the app renders it. */
const RELEASE = 1780003600 as Withdrawal['created_at']
const sale = (extra: Partial<Withdrawal> = {}): Withdrawal => ({
  id: toId(9),
  from_ref_balance: false,
  token_amount: 40,
  address: 'UQA_bB0umot8bV5POiscDZ6PemtcTT4vGgucjX5vWks8LYOF',
  status: 'pending',
  created_at: 1780000000 as Withdrawal['created_at'],
  ...extra,
})

const render = (w: Withdrawal, language: 'en' | 'ru') =>
  renderToStaticMarkup(createElement(LanguageContext.Provider, { value: language }, createElement('ul', null, createElement(WithdrawalRow, { w }))))

/** The text as React writes it into the markup (an apostrophe is escaped). */
const html = (s: string) => s.replace(/&/g, '&amp;').replace(/'/g, '&#x27;').replace(/"/g, '&quot;')

beforeAll(async () => {
  await loadScreenTexts()
  await loadCatalogue('ru')
})

describe('the withdraw history: a sale waiting its cooling period', () => {
  it('says, quietly, when it goes out and that the bot can cancel it, in English', () => {
    const out = render(sale({ release_at: RELEASE }), 'en')
    expect(out).toContain('data-testid="withdrawal-9-cooling"')
    expect(out).toContain(html(`A new address: this sale goes out at ${formatDateTime(RELEASE, 'en')}. Not you? Cancel it from the bot's message before then`))
    // Still a pending sale, not another status.
    expect(out).toContain('>Pending<')
  })

  it('and in Russian', () => {
    const out = render(sale({ release_at: RELEASE }), 'ru')
    expect(out).toContain(html(`Новый адрес: продажа уйдёт ${formatDateTime(RELEASE, 'ru')}. Это не вы? Отмените её в сообщении бота до этого времени`))
  })

  it('no line on a sale without release_at, nor on one no longer pending', () => {
    for (const w of [sale(), sale({ status: 'failed', release_at: RELEASE }), sale({ status: 'completed', release_at: RELEASE })]) {
      expect(render(w, 'en')).not.toContain('cooling')
      expect(render(w, 'en')).not.toContain('new address')
    }
  })
})
