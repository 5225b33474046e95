import { beforeAll, describe, expect, it } from 'vitest'
import { formatDateTime } from '../../../ui/lib/format.ts'
import type { Withdrawal } from '../../../core/index.ts'
import { aSale, loadRowTexts, renderWithdrawalRow } from './withdrawal-row-support.ts'

/** The withdraw history's row for a sale to a new address, waiting its cooling period, rendered as the app renders it. */
const RELEASE = 1780003600 as Withdrawal['created_at']
const sale = (extra: Partial<Withdrawal> = {}): Withdrawal => aSale(9, extra)

const render = renderWithdrawalRow

/** The text as React writes it into the markup (an apostrophe is escaped). */
const html = (s: string) => s.replace(/&/g, '&amp;').replace(/'/g, '&#x27;').replace(/"/g, '&quot;')

beforeAll(loadRowTexts)

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
