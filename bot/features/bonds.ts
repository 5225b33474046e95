import { Effect } from 'effect'
import { Composer } from 'grammy'
import { formatAmount, rewardAt, shownNumber, type Mint, type Stake } from '../../core/index.ts'
import type { ChatUser, UserBackend } from '../backend.ts'
import { wordsFor, type Words } from '../i18n.ts'

const line = (kind: string, r: Mint | Stake, words: Words, nowS: number) =>
  `${kind} #${shownNumber(r)} · ${r.status} · ${formatAmount(r.total_amount)} AXIOM · ${r.tariff_days} d · ${words.reward} ${formatAmount(rewardAt(r, nowS), 4)} / ${formatAmount(r.max_reward, 4)}`

/** /bonds: bonds and stakes with the reward earned so far, by the §4 rule the app uses (rewardAt). */
export const bondsFeature = (backend: (u: ChatUser) => UserBackend, nowS: () => number = () => Math.floor(Date.now() / 1000)) => {
  const c = new Composer()
  c.command('bonds', async (ctx) => {
    if (!ctx.from) return
    const words = wordsFor(ctx.from.language_code)
    try {
      const api = await backend(ctx.from).signedIn()
      const [mints, stakes] = await Promise.all([Effect.runPromise(api.mints()), Effect.runPromise(api.stakes())])
      const t = nowS()
      const lines = [
        ...mints.items.filter((m) => m.status !== 'pending').map((m) => line(words.bond, m, words, t)),
        ...stakes.items.filter((s) => s.status !== 'pending').map((s) => line(words.stake, s, words, t)),
      ]
      await ctx.reply(lines.length ? lines.join('\n') : words.noRecords)
    } catch {
      await ctx.reply(words.unavailable)
    }
  })
  return c
}
