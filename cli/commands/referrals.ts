import { displayedLevel } from '../../core/index.ts'
import { tokens, when } from '../output.ts'
import { table } from '../table.ts'
import type { Command } from './command.ts'

export const referrals: Command = {
  name: 'referrals',
  args: '',
  summary: 'The friends you invited, and how many are new since you last looked',
  examples: ['axiom referrals'],
  positionals: [0, 0],
  auth: true,
  async run(ctx, out) {
    const { list, badge } = await out.exec(ctx.uc.loadReferrals(), 'Loading referrals')
    ctx.uc.markReferralsSeen(list.length)
    out.emit({ referrals: list, new: badge }, () =>
      (badge ? `${badge} new\n` : '') +
      table(
        list,
        [
          { header: 'ID', value: (r) => r.id, align: 'right' },
          { header: 'NAME', value: (r) => r.name ?? '' },
          { header: 'LEVEL', value: (r) => (r.level === undefined ? '-' : String(displayedLevel(r.level))), align: 'right' },
          { header: 'TURNOVER', value: (r) => tokens(r.turnover ?? 0), align: 'right' },
          { header: 'JOINED', value: (r) => when(r.created_at) },
        ],
        'No referrals yet. Share your code (axiom me) to invite friends.',
      ),
    )
  },
}
