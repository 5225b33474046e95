import { Composer } from 'grammy'
import { signInitData } from '../backend.ts'
import { type CancelledSale, wordsFor } from '../i18n.ts'

/**
 * The callback data of the Cancel button the backend puts on its message about a sale waiting its
 * cooling period (server/telegram/notice-text.ts writes it: `sale_cancel:<sale id>`).
 */
export const SALE_CANCEL_DATA = /^sale_cancel:(\d{1,18})$/

type Outcome = 'cancelled' | 'already_cancelled' | 'not_waiting'

/**
 * A press of a sale's Cancel button (a `callback_query`), told to the backend as the chat-member
 * updates are: POST /api/telegram/sale-cancel with init data the bot signs for the callback's `from`
 * (the user who pressed), so the backend cancels only that user's own sale, and only while it
 * waits. Callback data is the client's word (a modified client may send any), never trusted here.
 * The query is always answered (Telegram shows a progress bar until it is); on a cancel the message
 * becomes what happened (a new message when it can no longer be edited); on a press too late the
 * Cancel button is taken off it.
 */
export const saleCancelFeature = (origin: string, botToken: string, miniAppLink: string, nowS: () => number = () => Math.floor(Date.now() / 1000)) => {
  const c = new Composer()
  c.callbackQuery(SALE_CANCEL_DATA, async (ctx) => {
    const words = wordsFor(ctx.from.language_code)
    const openOnly = { inline_keyboard: [[{ text: words.open, url: miniAppLink }]] }
    let answer: { outcome: Outcome; sale: CancelledSale } | 'not_yours' | 'unavailable'
    try {
      const res = await fetch(`${origin}/api/telegram/sale-cancel`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ init_data: signInitData(ctx.from, botToken, nowS()), sale_id: ctx.match[1] }),
      })
      answer = res.status === 404 ? 'not_yours' : res.ok ? ((await res.json()) as { outcome: Outcome; sale: CancelledSale }) : 'unavailable'
      if (answer === 'unavailable') console.error(`bot: the backend refused a sale cancel of ${ctx.from.id} (${res.status})`)
    } catch {
      answer = 'unavailable'
    }
    if (answer === 'unavailable') return void (await ctx.answerCallbackQuery({ text: words.unavailable, show_alert: true }))
    if (answer === 'not_yours') return void (await ctx.answerCallbackQuery({ text: words.saleNotYours, show_alert: true }))
    // The message the button is on; an InaccessibleMessage (date 0) can no longer be edited.
    const message = ctx.callbackQuery.message
    const editable = message !== undefined && message.date !== 0 ? message : null
    if (answer.outcome === 'cancelled') {
      await ctx.answerCallbackQuery({ text: words.saleCancelledShort })
      const text = words.saleCancelled(answer.sale)
      if (editable) {
        const edited = await ctx.api.editMessageText(editable.chat.id, editable.message_id, text, { reply_markup: openOnly }).then(
          () => true,
          () => false,
        )
        if (edited) return
      }
      await ctx.api.sendMessage(ctx.from.id, text, { reply_markup: openOnly })
      return
    }
    await ctx.answerCallbackQuery({ text: answer.outcome === 'already_cancelled' ? words.saleAlreadyCancelled : words.saleNotWaiting, show_alert: true })
    // Too late: the button goes (the text still tells the sale; the app shows how it ended).
    if (editable) await ctx.api.editMessageReplyMarkup(editable.chat.id, editable.message_id, { reply_markup: openOnly }).catch(() => undefined)
  })
  return c
}
