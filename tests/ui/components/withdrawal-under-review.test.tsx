import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { beforeAll, describe, expect, it } from 'vitest'
import { LanguageContext } from '../../../ui/app/contexts.ts'
import { WithdrawalRow } from '../../../ui/features/history/history-screen.tsx'
import { loadCatalogue, loadScreenTexts } from '../../../ui/i18n/catalogues.ts'
import { toId, type Withdrawal } from '../../../core/index.ts'

/** The withdraw history's row, rendered as the app renders it, for a sale the backend holds and for an ordinary one. */
const sale = (extra: Partial<Withdrawal> = {}): Withdrawal => ({
  id: toId(7),
  from_ref_balance: false,
  token_amount: 40,
  address: 'UQA_bB0umot8bV5POiscDZ6PemtcTT4vGgucjX5vWks8LYOF',
  status: 'pending',
  created_at: 1780000000 as Withdrawal['created_at'],
  ...extra,
})

const render = (w: Withdrawal, language: 'en' | 'ru') =>
  renderToStaticMarkup(createElement(LanguageContext.Provider, { value: language }, createElement('ul', null, createElement(WithdrawalRow, { w }))))

beforeAll(async () => {
  await loadScreenTexts()
  await loadCatalogue('ru')
})

describe('the withdraw history: a sale under review', () => {
  it('reads "Under review" with why, in English', () => {
    const html = render(sale({ under_review: true }), 'en')
    expect(html).toContain('>Under review<')
    expect(html).toContain('Large sales are checked before they are paid; your tokens are safe')
    expect(html).not.toContain('>Pending<')
  })

  it('reads "На проверке" with why, in Russian', () => {
    const html = render(sale({ under_review: true }), 'ru')
    expect(html).toContain('>На проверке<')
    expect(html).toContain('Крупные продажи проверяются перед выплатой; ваши токены в сохранности')
  })

  it('an ordinary pending sale (no field, or false) stays "Pending" with no explanation', () => {
    for (const w of [sale(), sale({ under_review: false })]) {
      const html = render(w, 'en')
      expect(html).toContain('>Pending<')
      expect(html).not.toContain('Under review')
      expect(html).not.toContain('review')
    }
  })
})
