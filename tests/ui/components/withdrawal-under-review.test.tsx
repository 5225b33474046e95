import { beforeAll, describe, expect, it } from 'vitest'
import type { Withdrawal } from '../../../core/index.ts'
import { aSale, loadRowTexts, renderWithdrawalRow } from './withdrawal-row-support.ts'

/** The withdraw history's row, rendered as the app renders it, for a sale the backend holds and for an ordinary one. */
const sale = (extra: Partial<Withdrawal> = {}): Withdrawal => aSale(7, extra)

const render = renderWithdrawalRow

beforeAll(loadRowTexts)

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
