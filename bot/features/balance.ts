import { Effect } from 'effect'
import { Composer } from 'grammy'
import { formatAmount } from '../../core/index.ts'
import type { ChatUser, UserBackend } from '../backend.ts'
import { wordsFor } from '../i18n.ts'

/** /balance: the user's balances, read through the core's API as the app reads them. */
export const balanceFeature = (backend: (u: ChatUser) => UserBackend) => {
  const c = new Composer()
  c.command('balance', async (ctx) => {
    if (!ctx.from) return
    const words = wordsFor(ctx.from.language_code)
    try {
      const api = await backend(ctx.from).signedIn()
      const me = await Effect.runPromise(api.me())
      if (!me) throw new Error('no user data')
      await ctx.reply(words.balance({ token: formatAmount(me.balance_token), task: formatAmount(me.task_balance), referral: formatAmount(me.referral_balance) }))
    } catch {
      await ctx.reply(words.unavailable)
    }
  })
  return c
}
