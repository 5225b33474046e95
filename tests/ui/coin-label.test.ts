import { describe, expect, it } from 'vitest'
import { BOT_LANGUAGES } from '../../bot/i18n.ts'
import { COIN } from '../../core/domain/constants.ts'
import { en } from '../../ui/i18n/en.ts'
import { enScreens } from '../../ui/i18n/en-screens.ts'
import { ru } from '../../ui/i18n/ru.ts'
import { ruScreens } from '../../ui/i18n/ru-screens.ts'
import { noticeText } from '../../server/telegram/notice-text.ts'
import { unitName } from '../../server/domain/operation-texts.ts'
import { Underpaid } from '../../server/domain/errors.ts'

/**
 * The chain's coin is Gram (GRAM) since the TON community's vote (2026-06-01); the network keeps its
 * name. Every text a user or an operator reads is checked here: a coin amount or price labelled TON
 * ("1.5 TON", "{amount} TON", "TON raised", "In TON", "TON per AXIOM") fails; "TON" is left only
 * where it names the network, the wallet, an address or the protocol.
 */
// The network in the other languages' words: "sobre TON", "di TON", "TON üzerinde", "روی TON" (on TON).
const NETWORK_TON = /TON(?=[ -](Connect|wallet|address|network|API|mnemonic)|-(адрес|кошел|сет)| üzerinde)|(?<=(on|на|адрес|Адрес|address|a|the|sobre|di|روی) )TON\b/
const labelledTon = (text: string) => text.replace(new RegExp(NETWORK_TON, 'g'), '').match(/\bTON\b/)

const stringsOf = (v: unknown, path: string, out: Array<[string, string]>) => {
  if (typeof v === 'string') out.push([path, v])
  else if (typeof v === 'function') return
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) stringsOf(x, `${path}.${k}`, out)
  return out
}

describe('the coin is GRAM wherever an amount or a price is read', () => {
  it('no text of the app, in English or Russian, labels an amount TON', () => {
    const texts = [...stringsOf(en, 'en', [])!, ...stringsOf(enScreens, 'en', [])!, ...stringsOf(ru, 'ru', [])!, ...stringsOf(ruScreens, 'ru', [])!]
    expect(texts.length).toBeGreaterThan(300)
    expect(texts.filter(([, t]) => labelledTon(t))).toEqual([])
    expect(en['common.approxTon' as keyof typeof en] ?? enScreens['common.approxTon']).toBe('≈ {amount} GRAM')
  })

  it("no bot text, notice or server message labels an amount TON, and the sale's notice says GRAM", () => {
    expect(Object.values(BOT_LANGUAGES).flatMap((w) => stringsOf(w, 'bot', [])!).filter(([, t]) => labelledTon(t))).toEqual([])
    const payload = { sale_id: 7, token_amount: '100', amount_ton: '2.5', address: 'EQ…', release_at: 0, mint_id: 1, number: 1, amount: '10' }
    for (const lang of ['en', 'ru'])
      for (const kind of ['bond_paid', 'bond_completed', 'stake_completed', 'sale_created', 'sale_paid', 'friend_joined', 'farming_used'] as const) {
        const { text } = noticeText(kind, payload, lang, 'https://t.me/axiom_bot/app', 0)
        expect(labelledTon(text), `${lang} ${kind}: ${text}`).toBeNull()
        if (kind === 'sale_created' || kind === 'sale_paid') expect(text).toContain(`2.5 ${COIN}`)
      }
    expect(unitName('ton')).toBe('GRAM')
    expect(new Underpaid('1', '2').message).toBe('Payment of 1 GRAM is below 2 GRAM')
  })

  it('the check itself tells the network from the coin', () => {
    for (const ok of ['Connect your TON wallet', 'a TON address', 'Адрес TON', 'TON Connect', 'Введите корректный адрес TON', 'earn AXIOM on TON', 'TON-кошелёк', 'AXIOM sobre TON', 'AXIOM di TON', 'TON üzerinde tahvil', 'AXIOM روی TON']) expect(labelledTon(ok), ok).toBeNull()
    for (const bad of ['1.5 TON', '≈ {amount} TON', 'TON raised', 'In TON', 'В TON', 'Привлечено TON', '0.03 TON per AXIOM']) expect(labelledTon(bad), bad).not.toBeNull()
  })
})
