import { describe, expect, it } from 'vitest'
import { COIN } from '../../core/domain/constants.ts'
import { LANGUAGES } from '../../core/domain/languages.ts'
import type { NoticeKind } from '../../server/domain/outbox.ts'
import { noticeText } from '../../server/telegram/notice-text.ts'
import { invitationArticle } from '../../server/telegram/share-message.ts'

/** The backend's Telegram messages (notices, their buttons, the shared invitation) in each of AXIOM's languages. */
const KINDS: NoticeKind[] = ['bond_paid', 'bond_completed', 'stake_completed', 'sale_created', 'sale_paid', 'friend_joined', 'farming_used']
const LINK = 'https://t.me/axiom_bot/app'
// A payload with every field some notice reads, each value one a text must show as it is.
const payload = { sale_id: 71, token_amount: '100.5', amount_ton: '2.5', address: 'UQB6HAtO', release_at: 2_000_000_000, mint_id: 9, number: 3, amount: '40.25', name: 'Alice' }
const tonCount = (t: string) => t.match(/\bTON\b/g)?.length ?? 0

describe('Telegram messages in every language', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s: each notice and button in its own words, with the figures, the address and GRAM as they are', (language) => {
    for (const kind of KINDS) {
      const english = noticeText(kind, payload, 'en', LINK, 0)
      const own = noticeText(kind, payload, language.toLowerCase(), LINK, 0)
      expect(own.text, `${language} ${kind}`).not.toBe(english.text)
      expect(own.text).not.toMatch(/undefined|NaN|\$\{/)
      for (const value of [/#3\b/, /40\.25|100\.5/, /Alice/])
        if (value.test(english.text)) expect(own.text, `${language} ${kind}`).toMatch(value)
      if (english.text.includes(`2.5 ${COIN}`)) expect(own.text, `${language} ${kind}`).toContain(`2.5 ${COIN}`)
      if (kind === 'sale_created') expect(own.text).toContain('UQB6HAtO')
      expect(tonCount(own.text), `${language} ${kind}: TON only where English names the network`).toBeLessThanOrEqual(tonCount(english.text))
    }
    const waiting = noticeText('sale_created', payload, language, LINK, 0).keyboard
    const englishButtons = noticeText('sale_created', payload, 'en', LINK, 0).keyboard
    expect(waiting.flat().map((b) => b.text)).not.toEqual(englishButtons.flat().map((b) => b.text))
    expect(waiting.flat().every((b) => b.text.length > 0)).toBe(true)

    const article = invitationArticle(LINK, 'ref123', language)
    const englishArticle = invitationArticle(LINK, 'ref123', 'en')
    expect(article.title).not.toBe(englishArticle.title)
    expect(article.input_message_content).toMatchObject({ message_text: expect.stringContaining('startapp=ref123') })
    expect(article.description).toContain('AXIOM')
  })

  it('chooses the language as the app does, English for any other', () => {
    expect(noticeText('sale_paid', payload, 'pt', LINK, 0).text).toBe(noticeText('sale_paid', payload, 'pt-br', LINK, 0).text)
    expect(noticeText('sale_paid', payload, 'de', LINK, 0).text).toBe(noticeText('sale_paid', payload, 'en', LINK, 0).text)
    expect(noticeText('sale_paid', payload, null, LINK, 0).text).toBe(noticeText('sale_paid', payload, 'en', LINK, 0).text)
    expect(noticeText('sale_paid', payload, 'uk', LINK, 0).text).toBe('Продаж виплачено: 2.5 GRAM надіслано на ваш гаманець.')
  })
})
