import { Composer } from 'grammy'
import type { ChatUser, UserBackend } from '../backend.ts'
import { wordsFor } from '../i18n.ts'

/** /notifications on|off: whether the backend sends this user its messages (POST /api/user/notifications). */
export const notificationsFeature = (backend: (u: ChatUser) => UserBackend, origin: string) => {
  const c = new Composer()
  c.command('notifications', async (ctx) => {
    if (!ctx.from) return
    const words = wordsFor(ctx.from.language_code)
    const arg = ctx.match.trim().toLowerCase()
    if (arg !== 'on' && arg !== 'off') return void (await ctx.reply(words.notificationsUsage))
    try {
      const user = backend(ctx.from)
      await user.signedIn()
      const res = await fetch(`${origin}/api/user/notifications`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.token()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ enabled: arg === 'on' }),
      })
      if (!res.ok) throw new Error(`${res.status}`)
      await ctx.reply(arg === 'on' ? words.notificationsOn : words.notificationsOff)
    } catch {
      await ctx.reply(words.unavailable)
    }
  })
  return c
}
