import type { FarmingLink, FarmingLinkId, FundingSource } from '../../core/index.ts'
import { amountArg, stringArg, UsageError, idArg, wholeArg } from '../args.ts'
import { tokens, when } from '../output.ts'
import { type Column, table } from '../table.ts'
import { type Command, newKey } from './command.ts'

const linkColumns: ReadonlyArray<Column<FarmingLink>> = [
  { header: 'ID', value: (l) => l.id, align: 'right' },
  { header: 'CODE', value: (l) => l.activation_code },
  { header: 'STATUS', value: (l) => l.status ?? '-' },
  { header: 'AMOUNT', value: (l) => tokens(l.amount), align: 'right' },
  { header: 'DAYS', value: (l) => String(l.days), align: 'right' },
  { header: 'USED', value: (l) => `${l.used_activations ?? 0}/${l.count_activations}`, align: 'right' },
  { header: 'FROM', value: (l) => (l.from_ref_balance ? 'ref' : 'task') },
  { header: 'KIND', value: (l) => `${l.is_multilink ? 'multi' : 'single'}${l.is_for_me ? ', for me' : ''}` },
  { header: 'CREATED', value: (l) => when(l.created_at) },
]

export const farmCreate: Command = {
  name: 'farm create',
  args: '<amount> --days N [--activations K] [--multi] [--for-me] [--from ref|task|main]',
  summary: 'Create a farming link funded from the referral (default), task or main balance',
  examples: ['axiom farm create 2 --days 10 --activations 3 --multi --from task'],
  options: {
    days: { type: 'string' },
    activations: { type: 'string' },
    multi: { type: 'boolean' },
    'for-me': { type: 'boolean' },
    from: { type: 'string' },
  },
  positionals: [1, 1],
  auth: true,
  async run(ctx, out, a) {
    const amount = amountArg(a.positionals[0])
    const days = wholeArg(a.values.days, '--days N')
    const activations = a.values.activations === undefined ? 1 : wholeArg(a.values.activations, '--activations K')
    const from = a.values.from ?? 'ref'
    if (from !== 'ref' && from !== 'task' && from !== 'main') throw new UsageError(`--from must be ref, task or main, got "${String(from)}"`)
    const multiUse = a.values.multi === true
    if (!multiUse && activations !== 1) throw new UsageError('A single-use link has one activation: add --multi for more')
    const source: FundingSource = from === 'ref' ? 'referral' : from
    const link = await out.exec(
      ctx.uc.createFarmingLink({ amount, days, activations, source, multiUse, forMe: a.values['for-me'] === true }, { idempotencyKey: newKey() }),
      'Creating the link',
    )
    out.emit(link, `Farming link #${link.id} created: code ${link.activation_code}\nActivate it with: axiom farm activate ${link.activation_code}\n`)
  },
}

export const farmList: Command = {
  name: 'farm list',
  args: '',
  summary: 'Your farming links',
  examples: ['axiom farm list'],
  positionals: [0, 0],
  auth: true,
  async run(ctx, out) {
    const links = await out.exec(ctx.uc.loadFarmingLinks(), 'Loading links')
    out.emit(links, () => table(links, linkColumns, 'No farming links yet'))
  },
}

export const farmCancel: Command = {
  name: 'farm cancel',
  args: '<id>',
  summary: 'Revoke a farming link; unused activations are refunded',
  examples: ['axiom farm cancel 3'],
  positionals: [1, 1],
  auth: true,
  async run(ctx, out, a) {
    const id = idArg<FarmingLinkId>(a.positionals[0], '<id>')
    const link = await out.exec(ctx.uc.cancelFarmingLink(id), 'Cancelling the link')
    out.emit(link, `Farming link #${link.id} is ${link.status ?? 'revoked'}\n`)
  },
}

export const farmActivate: Command = {
  name: 'farm activate',
  args: '<code>',
  summary: 'Activate a farming code: a bond for you (once per code)',
  examples: ['axiom farm activate K7Q2M9XW4P'],
  positionals: [1, 1],
  auth: true,
  async run(ctx, out, a) {
    const code = stringArg(a.positionals[0], '<code>')
    const result = await out.exec(ctx.uc.checkFarmCode(code), 'Activating')
    if (!result) {
      out.emit({ code, already_checked: true }, `Code ${code} was already checked from this machine\n`)
      return
    }
    const d = result.mint_details
    out.emit(
      { code, ...result },
      `${result.status}${result.message ? `: ${result.message}` : ''}\n` +
        (d ? `Bond of ${tokens(d.amount_token)} AXIOM for ${d.tariff_days} days\n` : ''),
    )
  },
}
