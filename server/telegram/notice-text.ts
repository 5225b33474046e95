/**
 * What the backend tells a user in the bot's chat (docs/deploy.md, "Notifications"), in their
 * language: each language's words are in words/<language>.ts.
 */
import type { NoticeKind } from '../domain/outbox.ts'
import { telegramWordsFor } from './words/all.ts'
import type { Payload } from './words/words.ts'

export type { NoticeKind }

/** An inline keyboard button as the Bot API takes it: a link, or a callback the bot receives. */
export type NoticeButton = { readonly text: string; readonly url: string } | { readonly text: string; readonly callback_data: string }

/** The callback data of a waiting sale's Cancel button (at most 64 bytes, as the Bot API allows). */
export const SALE_CANCEL_DATA = /^sale_cancel:(\d{1,18})$/
export const saleCancelData = (saleId: number | bigint | string): string => `sale_cancel:${saleId}`

export { utcTime } from './words/words.ts'

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
  const words = telegramWordsFor(language)
  const text = words.notices[kind]
  const open: NoticeButton = { text: words.openApp, url: miniAppLink }
  const waiting = kind === 'sale_created' && payload.release_at !== undefined && Number(payload.release_at) > nowS && payload.sale_id !== undefined
  return {
    text: text ? text(payload) : kind,
    keyboard: waiting ? [[{ text: words.cancelSale, callback_data: saleCancelData(payload.sale_id!) }], [open]] : [[open]],
  }
}
