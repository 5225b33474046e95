import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { LanguageContext } from '../../../ui/i18n/language-context.ts'
import { WithdrawalRow } from '../../../ui/features/history/history-screen.tsx'
import { loadCatalogue, loadScreenTexts } from '../../../ui/i18n/catalogues.ts'
import { toId, type Withdrawal } from '../../../core/index.ts'

/** A sale as the app holds it once decoded: 40 tokens, pending; `extra` changes it. */
export const aSale = (id: number, extra: Partial<Withdrawal> = {}): Withdrawal => ({
  id: toId(id),
  from_ref_balance: false,
  token_amount: 40,
  address: 'UQA_bB0umot8bV5POiscDZ6PemtcTT4vGgucjX5vWks8LYOF',
  status: 'pending',
  created_at: 1780000000 as Withdrawal['created_at'],
  ...extra,
})

/** The withdraw history's row for `w`, rendered as the app renders it, in `language`. */
export const renderWithdrawalRow = (w: Withdrawal, language: 'en' | 'ru') =>
  renderToStaticMarkup(createElement(LanguageContext.Provider, { value: language }, createElement('ul', null, createElement(WithdrawalRow, { w }))))

/** The screens' texts and the Russian catalogue, which a rendered row reads. */
export const loadRowTexts = async () => {
  await loadScreenTexts()
  await loadCatalogue('ru')
}
