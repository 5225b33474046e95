import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { beforeAll, describe, expect, it } from 'vitest'
import { toId, type Operation } from '../../../core/index.ts'
import { LanguageContext } from '../../../ui/i18n/language-context.ts'
import { OperationRow } from '../../../ui/features/history/history-screen.tsx'
import { loadRowTexts } from './withdrawal-row-support.ts'

/** The operations history's rows, rendered as the app renders them: each event's text, and its amount in its unit. */
const row = (extra: Partial<Operation>): Operation => ({
  id: toId(7),
  type: 'welcome',
  amount: 100,
  created_at: 1780000000 as Operation['created_at'],
  ...extra,
})

const render = (op: Operation, language: 'en' | 'ru') =>
  renderToStaticMarkup(createElement(LanguageContext.Provider, { value: language }, createElement('ul', null, createElement(OperationRow, { op }))))

/** The amount cell's text, tags dropped. */
const amount = (html: string) => /data-testid="operation-7-amount">(.*?)<\/span><\/li>/.exec(html)![1]!.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim()
const title = (html: string) => /class="list__title">(.*?)<\/span>/.exec(html)![1]!

beforeAll(loadRowTexts)

const bought = row({
  type: 'bond_paid',
  amount: -5.25,
  unit: 'GRAM',
  balance: 'wallet',
  description: 'Bond #41 bought',
  description_key: 'operation.bond_paid',
  description_params: { bond: '41', bond_number: 3 },
})

describe('the operations history: a row per money event, with its unit', () => {
  it('a bond paid in TON: its number and the TON it cost, spent', () => {
    const en = render(bought, 'en')
    expect(title(en)).toBe('Bond #3 bought')
    expect(amount(en)).toBe('−5.25 GRAM')
    expect(en).toContain('is-negative')
    expect(title(render(bought, 'ru'))).toBe('Куплен бонд #3')
    expect(amount(render(bought, 'ru'))).toMatch(/^−5[.,]25 GRAM$/)
  })

  it("a stake and a link's bond: what they were worth, neither gained nor spent", () => {
    const stake = row({
      type: 'stake',
      amount: 20,
      unit: 'AXIOM',
      balance: 'none',
      description_key: 'operation.stake',
      description_params: { bond: '41', bond_number: 3, stake: '9', stake_number: 1 },
    })
    const en = render(stake, 'en')
    expect(title(en)).toBe('Bond #3 staked as stake #1')
    expect(amount(en)).toBe('20.00 AXIOM')
    expect(en).not.toMatch(/is-(positive|negative)/)
    expect(title(render(stake, 'ru'))).toBe('Бонд #3 переведён в стейк #1')
    const linked = row({ type: 'farming_bond', amount: 5, unit: 'AXIOM', balance: 'none', description_key: 'operation.farming_bond', description_params: { bond: '50', bond_number: 4 } })
    expect(title(render(linked, 'en'))).toBe('Bond #4 from a farming link')
    expect(title(render(linked, 'ru'))).toBe('Бонд #4 по ссылке на бонд')
    expect(amount(render(linked, 'en'))).toBe('5.00 AXIOM')
  })

  it("a sale's payout: the TON received", () => {
    const paid = row({ type: 'sale_paid', amount: 1.455, unit: 'GRAM', balance: 'wallet', description_key: 'operation.sale_paid', description_params: { sale: '12' } })
    expect(title(render(paid, 'en'))).toBe('Sale #12 paid to your wallet')
    expect(title(render(paid, 'ru'))).toBe('Продажа #12 выплачена на ваш кошелёк')
    expect(amount(render(paid, 'en'))).toBe('+1.455 GRAM')
  })

  it('a row from a backend that sends no unit shows its amount as before', () => {
    expect(amount(render(row({ description: 'Welcome balance', description_key: 'operation.welcome' }), 'en'))).toBe('+100.00')
  })
})
