import { type Mint, type MintId, type Stake } from '../../core/index.ts'
import { idArg } from '../args.ts'
import { tokens } from '../output.ts'
import { dailyRate, formatRate, recordColumns, withReward } from '../records.ts'
import { table } from '../table.ts'
import { type Command, newKey, now } from './command.ts'

export const mints: Command = {
  name: 'mints',
  args: '',
  summary: 'Your bonds (mints) with the reward earned so far',
  examples: ['axiom mints', 'axiom mints --json'],
  positionals: [0, 0],
  auth: true,
  async run(ctx, out) {
    const list = await out.exec(ctx.uc.loadMints(), 'Loading bonds')
    const t = now(ctx)
    out.emit(
      list.map((m) => withReward(m, t)),
      () => table(list, recordColumns<Mint>(t), 'No bonds yet. Buy one: axiom bond <amount> --days N'),
    )
  },
}

export const stakes: Command = {
  name: 'stakes',
  args: '',
  summary: 'Your stakes with the reward earned so far',
  examples: ['axiom stakes'],
  positionals: [0, 0],
  auth: true,
  async run(ctx, out) {
    const list = await out.exec(ctx.uc.loadStakes(), 'Loading stakes')
    const t = now(ctx)
    out.emit(
      list.map((s) => withReward(s, t)),
      () => table(list, recordColumns<Stake>(t), 'No stakes yet. Stake an active bond: axiom stake <mintId>'),
    )
  },
}

export const plans: Command = {
  name: 'plans',
  args: '',
  summary: 'The bond plans on offer, by days',
  examples: ['axiom plans'],
  positionals: [0, 0],
  auth: true,
  async run(ctx, out) {
    const list = await out.exec(ctx.uc.loadBondPlans(), 'Loading plans')
    out.emit(list, () =>
      table(list, [
        { header: 'DAYS', value: (p) => String(p.days), align: 'right' },
        { header: '% / DAY', value: (p) => (p.daily_reward === undefined ? '-' : formatRate(p.daily_reward)), align: 'right' },
      ]),
    )
  },
}

export const cancel: Command = {
  name: 'cancel',
  args: '<mintId>',
  summary: 'Cancel a bond (an active one returns its principal less a 10 % penalty)',
  examples: ['axiom cancel 12'],
  positionals: [1, 1],
  auth: true,
  async run(ctx, out, a) {
    const id = idArg<MintId>(a.positionals[0], '<mintId>')
    const m = await out.exec(ctx.uc.cancelBond(id), 'Cancelling')
    out.emit(m, `Bond #${m.id} is ${m.status}\n`)
  },
}

export const stake: Command = {
  name: 'stake',
  args: '<mintId>',
  summary: 'Stake an active bond',
  examples: ['axiom stake 12'],
  positionals: [1, 1],
  auth: true,
  async run(ctx, out, a) {
    const id = idArg<MintId>(a.positionals[0], '<mintId>')
    const s = await out.exec(ctx.uc.stakeMint(id, { idempotencyKey: newKey() }), 'Staking')
    out.emit(
      s,
      `Stake #${s.id} ${s.status}: ${tokens(s.total_amount)} AXIOM for ${s.tariff_days} days at ${formatRate(dailyRate(s))} % a day\n`,
    )
  },
}
