/** What the backend tells a user in the bot's chat (docs/deploy.md, "Notifications"), in their language. */
import type { NoticeKind } from '../domain/outbox.ts'
import { COIN } from '../../core/domain/constants.ts'

export type { NoticeKind }

type Payload = Readonly<Record<string, string | number>>

/** An inline keyboard button as the Bot API takes it: a link, or a callback the bot receives. */
export type NoticeButton = { readonly text: string; readonly url: string } | { readonly text: string; readonly callback_data: string }

/** The callback data of a waiting sale's Cancel button (at most 64 bytes, as the Bot API allows). */
export const SALE_CANCEL_DATA = /^sale_cancel:(\d{1,18})$/
export const saleCancelData = (saleId: number | bigint | string): string => `sale_cancel:${saleId}`

/** A unix time as the messages write it: `2026-05-28 14:05 UTC` (the bot does not know the user's zone). */
export const utcTime = (unixS: number): string => `${new Date(unixS * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`

const saleCreated = {
  en: (p: Payload) =>
    p.release_at === undefined
      ? `Sale #${p.sale_id}: ${p.token_amount} AXIOM for ${p.amount_ton} ${COIN} to ${p.address}. It is being paid out.`
      : `Sale #${p.sale_id}: ${p.token_amount} AXIOM for ${p.amount_ton} ${COIN} to ${p.address}.\n` +
        `This address is new to your account (not your wallet connected with TON Connect), so the sale waits until ${utcTime(Number(p.release_at))} before it is paid. ` +
        `Not you? Cancel it before then: the tokens come back to your balance.`,
  ru: (p: Payload) =>
    p.release_at === undefined
      ? `Продажа #${p.sale_id}: ${p.token_amount} AXIOM за ${p.amount_ton} ${COIN} на адрес ${p.address}. Выплата уже идёт.`
      : `Продажа #${p.sale_id}: ${p.token_amount} AXIOM за ${p.amount_ton} ${COIN} на адрес ${p.address}.\n` +
        `Этот адрес новый для вашего аккаунта (это не кошелёк, подключённый через TON Connect), поэтому выплата ждёт до ${utcTime(Number(p.release_at))}. ` +
        `Это не вы? Отмените продажу до этого времени: токены вернутся на баланс.`,
}

const TEXTS: Record<'en' | 'ru', Record<NoticeKind, (p: Payload) => string>> = {
  en: {
    bond_paid: (p) => `Your payment arrived: bond #${p.number ?? p.mint_id} for ${p.amount} AXIOM is active.`,
    bond_completed: (p) => `Bond #${p.number ?? p.mint_id} completed: ${p.amount} AXIOM and its reward are on your balance.`,
    stake_completed: (p) => `Stake #${p.number ?? p.stake_id} completed: ${p.amount} AXIOM and its reward are on your balance.`,
    sale_created: saleCreated.en,
    sale_paid: (p) => `Your sale was paid out: ${p.amount_ton} ${COIN} sent to your wallet.`,
    friend_joined: (p) => `${p.name} joined AXIOM through your link.`,
    farming_used: (p) => `${p.name} used your farming link: a bond of ${p.amount} AXIOM.`,
  },
  ru: {
    bond_paid: (p) => `Оплата получена: бонд #${p.number ?? p.mint_id} на ${p.amount} AXIOM активен.`,
    bond_completed: (p) => `Бонд #${p.number ?? p.mint_id} завершён: ${p.amount} AXIOM и награда зачислены на баланс.`,
    stake_completed: (p) => `Стейк #${p.number ?? p.stake_id} завершён: ${p.amount} AXIOM и награда зачислены на баланс.`,
    sale_created: saleCreated.ru,
    sale_paid: (p) => `Продажа выплачена: ${p.amount_ton} ${COIN} отправлены на ваш кошелёк.`,
    friend_joined: (p) => `${p.name} присоединился к AXIOM по вашей ссылке.`,
    farming_used: (p) => `${p.name} использовал вашу ссылку фарминга: бонд на ${p.amount} AXIOM.`,
  },
}

const CANCEL_SALE = { en: 'Cancel this sale', ru: 'Отменить продажу' } as const
const OPEN_APP = { en: 'Open AXIOM', ru: 'Открыть AXIOM' } as const

/**
 * A notice row's message: its text in the user's language, and its inline keyboard (rows of
 * buttons): the app's link, and above it, on a sale still waiting at `nowS` (its release_at ahead),
 * the button that cancels it.
 */
export const noticeText = (
  kind: NoticeKind,
  payload: Payload,
  language: string | null,
  miniAppLink: string,
  nowS: number,
): { text: string; keyboard: ReadonlyArray<ReadonlyArray<NoticeButton>> } => {
  const lang = language?.toLowerCase().startsWith('ru') ? 'ru' : 'en'
  const text = TEXTS[lang][kind]
  const open: NoticeButton = { text: OPEN_APP[lang], url: miniAppLink }
  const waiting = kind === 'sale_created' && payload.release_at !== undefined && Number(payload.release_at) > nowS && payload.sale_id !== undefined
  return {
    text: text ? text(payload) : kind,
    keyboard: waiting ? [[{ text: CANCEL_SALE[lang], callback_data: saleCancelData(payload.sale_id!) }], [open]] : [[open]],
  }
}
