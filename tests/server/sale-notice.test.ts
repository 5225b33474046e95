import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultTelegramSettings, DEV_BOT_TOKEN } from '../../server/main.ts'
import { devWalletKey } from '../../stand-ins/chain/dev-keys.ts'
import { proveWallet } from '../support/bind-wallet.ts'
import { ok, startBotApiFake, type BotApiFake } from '../support/bot-api-fake.ts'
import { signInitDataFor } from '../support/init-data.ts'
import { call, SOME_ADDRESS, startTestServer, type Session, type TestServer } from './support.ts'

/**
 * The bot tells the user of every sale, in their language, with the address and the amounts; the
 * message about a sale waiting its cooling period (AXIOM_NEW_ADDRESS_DELAY) carries an inline button
 * that cancels it. Asserted on the raw Bot API request the fake Telegram receives
 * (tests/support/bot-api-fake.ts, written from core.telegram.org/bots/api).
 */
const DELAY = 3_600
const LINK = 'https://t.me/axiom_dev_bot/app'
const WALLET = devWalletKey(50)

let fake: BotApiFake
let t: TestServer
let nextMessageId = 1

beforeAll(async () => {
  fake = await startBotApiFake(DEV_BOT_TOKEN)
  fake.on('getChatMember', (p) => ok({ status: 'member', user: { id: p.user_id, is_bot: false, first_name: 'x' } }))
  fake.on('sendMessage', (p) => ok({ message_id: nextMessageId++, date: 1, chat: { id: p.chat_id, type: 'private' }, text: p.text }))
  t = await startTestServer({ newAddressDelayS: DELAY, telegram: { ...defaultTelegramSettings(), apiRoot: fake.url, miniAppLink: LINK } })
})
afterAll(async () => {
  await t?.close()
  await fake?.close()
})

const drain = () => t.server.outbox!.drain()
const sentTo = (chatId: number) => fake.callsOf('sendMessage').filter((c) => c.params.chat_id === chatId)

/** A user signed in with `language_code` (the bot writes in it), holding 1000 AXIOM. */
const seller = async (telegramId: number, language?: string): Promise<Session> => {
  const res = await call(t.url, 'POST', '/auth/register', {
    body: { init_data: signInitDataFor({ id: telegramId, first_name: `User ${telegramId}`, ...(language ? { language_code: language } : {}) }, t.clock.now, DEV_BOT_TOKEN) },
  })
  expect(res.status).toBe(200)
  await t.server.admin.credit(telegramId, '1000')
  const token = res.body.token as string
  return { token, refresh: res.body.refresh, telegramId, call: (m, p, o = {}) => call(t.url, m, p, { token, ...o }) }
}

const sell = async (s: Session, address: string, tokens = '10') => {
  const res = await s.call('POST', '/withdraw/create', { body: { from_ref_balance: false, token_amount: tokens, address } })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body as { id: number; amount_ton: string; address: string; release_at?: number }
}

const utc = (s: number) => `${new Date(s * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`

describe("the bot's message about each sale", () => {
  it('a sale to a new address: the address, the tokens, the GRAM, when it goes, and a Cancel button above the app link', async () => {
    const s = await seller(9301)
    const sale = await sell(s, SOME_ADDRESS, '12.5')
    await drain()
    const sent = sentTo(9301)
    expect(sent).toHaveLength(1)
    const body = sent[0]!.params
    expect(body.text).toBe(
      `Sale #${sale.id}: 12.5 AXIOM for ${sale.amount_ton} GRAM to ${sale.address}.\n` +
        `This address is new to your account (not your wallet connected with TON Connect), so the sale waits until ${utc(sale.release_at!)} before it is paid. ` +
        'Not you? Cancel it before then: the tokens come back to your balance.',
    )
    expect(body.reply_markup).toEqual({
      inline_keyboard: [[{ text: 'Cancel this sale', callback_data: `sale_cancel:${sale.id}` }], [{ text: 'Open AXIOM', url: LINK }]],
    })
  })

  it("a sale to the user's proven wallet: told too, with no Cancel button", async () => {
    const s = await seller(9302)
    await proveWallet(s, WALLET, t.clock.now)
    t.clock.advance(DELAY)
    const again = await seller(9302)
    const sale = await sell(again, WALLET.friendly)
    expect(sale.release_at).toBeUndefined()
    await drain()
    const sent = sentTo(9302)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.params.text).toBe(`Sale #${sale.id}: 10 AXIOM for ${sale.amount_ton} GRAM to ${WALLET.friendly}. It is being paid out.`)
    expect(sent[0]!.params.reply_markup).toEqual({ inline_keyboard: [[{ text: 'Open AXIOM', url: LINK }]] })
  })

  it('in Russian for a Russian-speaking user', async () => {
    const s = await seller(9303, 'ru')
    const sale = await sell(s, SOME_ADDRESS)
    await drain()
    const body = sentTo(9303)[0]!.params
    expect(body.text).toContain(`Продажа #${sale.id}: 10 AXIOM за ${sale.amount_ton} GRAM на адрес ${sale.address}.`)
    expect(body.text).toContain(`выплата ждёт до ${utc(sale.release_at!)}`)
    expect((body.reply_markup as any).inline_keyboard[0]).toEqual([{ text: 'Отменить продажу', callback_data: `sale_cancel:${sale.id}` }])
  })

  it('is sent with notifications off: a stolen session could turn them off before it sells', async () => {
    const s = await seller(9304)
    expect((await s.call('POST', '/user/notifications', { body: { enabled: false } })).status).toBe(200)
    const sale = await sell(s, SOME_ADDRESS)
    await drain()
    const sent = sentTo(9304)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.params.text).toContain(`Sale #${sale.id}: 10 AXIOM`)
  })

  it('a message that goes out only after the wait (Telegram was down) carries no Cancel button', async () => {
    const s = await seller(9305)
    fake.on('sendMessage', () => ({ status: 502, body: '{"ok":false,"error_code":502,"description":"Bad Gateway"}' }))
    const sale = await sell(s, SOME_ADDRESS)
    await drain()
    expect(sentTo(9305)).toHaveLength(1)
    fake.on('sendMessage', (p) => ok({ message_id: nextMessageId++, date: 1, chat: { id: p.chat_id, type: 'private' }, text: p.text }))
    t.clock.advance(DELAY)
    await drain()
    const sent = sentTo(9305)
    expect(sent).toHaveLength(2)
    expect(sent[1]!.params.text).toContain(`Sale #${sale.id}: 10 AXIOM`)
    expect(sent[1]!.params.reply_markup).toEqual({ inline_keyboard: [[{ text: 'Open AXIOM', url: LINK }]] })
  })
})
