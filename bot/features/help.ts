import { Composer } from 'grammy'
import { wordsFor } from '../i18n.ts'

export const helpFeature = () => {
  const c = new Composer()
  c.command('help', (ctx) => ctx.reply(wordsFor(ctx.from?.language_code).help))
  return c
}
