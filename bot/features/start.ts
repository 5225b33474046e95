import { Composer, InlineKeyboard } from 'grammy'
import { appLink } from '../config.ts'
import { wordsFor } from '../i18n.ts'

const START_PARAM = /^[A-Za-z0-9_-]{1,512}$/

/**
 * /start and /start <param>: a button to the mini app's direct link with the same start parameter
 * (a referral code or farm_<code> keeps its meaning). A url button, not a web_app one: a web_app
 * button would open the app without the parameter.
 */
export const startFeature = (miniAppLink: string) => {
  const c = new Composer()
  c.command('start', async (ctx) => {
    const words = wordsFor(ctx.from?.language_code)
    const param = START_PARAM.test(ctx.match.trim()) ? ctx.match.trim() : null
    await ctx.reply(param ? words.startWithParam : words.start, {
      reply_markup: new InlineKeyboard().url(words.open, appLink(miniAppLink, param)),
    })
  })
  return c
}
