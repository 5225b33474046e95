import { displayedLevel, nextTier, type Operation, pageCount, tierForTurnover, shortAddress, type Withdrawal } from '../../core/index.ts'
import { wholeArg } from '../args.ts'
import { percent, tokens, when } from '../output.ts'
import { type Column, keyValues, table } from '../table.ts'
import { type Command, orFail } from './command.ts'

const withdrawalColumns: ReadonlyArray<Column<Withdrawal>> = [
  { header: 'ID', value: (w) => w.id, align: 'right' },
  { header: 'STATUS', value: (w) => w.status },
  { header: 'AMOUNT', value: (w) => tokens(w.token_amount), align: 'right' },
  { header: 'FEE', value: (w) => (w.fee === undefined ? '-' : tokens(w.fee)), align: 'right' },
  { header: 'NET', value: (w) => (w.net_amount === undefined ? '-' : tokens(w.net_amount)), align: 'right' },
  { header: 'FROM', value: (w) => (w.from_ref_balance ? 'ref' : 'main') },
  { header: 'TO', value: (w) => shortAddress(w.address) },
  { header: 'CREATED', value: (w) => when(w.created_at) },
]

const operationColumns: ReadonlyArray<Column<Operation>> = [
  { header: 'ID', value: (o) => o.id, align: 'right' },
  { header: 'TYPE', value: (o) => o.type },
  { header: 'AMOUNT', value: (o) => tokens(o.amount), align: 'right' },
  { header: 'WHEN', value: (o) => when(o.created_at) },
  { header: 'DESCRIPTION', value: (o) => o.description ?? '' },
]

export const me: Command = {
  name: 'me',
  args: '',
  summary: 'Your account: referral standing, bonuses and balances',
  examples: ['axiom me', 'axiom me --json | jq .ref_code'],
  positionals: [0, 0],
  auth: true,
  async run(ctx, out) {
    const u = orFail(await out.exec(ctx.uc.loadUser(), 'Loading your account'))
    const tier = tierForTurnover(u.ref.turnover ?? 0)
    const next = nextTier(tier)
    out.emit(u, () =>
      keyValues([
        ['Referral code', u.ref_code],
        ['Level', `${displayedLevel(u.ref.level)} (bonus ${tier.bonus} %)`],
        ['Turnover', `${tokens(u.ref.turnover ?? 0)}${next ? ` (level ${next.level} at ${tokens(next.threshold)})` : ''}`],
        ['Community member', u.community_participation ? 'yes' : 'no'],
        ['Balance', `${tokens(u.balance_token)} AXIOM`],
        ['Task balance', `${tokens(u.task_balance)} AXIOM`],
        ['Referral balance', `${tokens(u.referral_balance)} AXIOM`],
        ['Hold bonus', percent(u.hold_bonus)],
        ['Investment bonus', percent(u.investment_bonus)],
        ['Collective bonus', percent(u.collective_bonus)],
      ]),
    )
  },
}

export const balances: Command = {
  name: 'balances',
  args: '',
  summary: 'Your main, task and referral balances',
  examples: ['axiom balances'],
  positionals: [0, 0],
  auth: true,
  async run(ctx, out) {
    const u = orFail(await out.exec(ctx.uc.loadUser(), 'Loading balances'))
    const data = { balance_token: u.balance_token, task_balance: u.task_balance, referral_balance: u.referral_balance }
    out.emit(data, () =>
      table(
        [
          ['main', u.balance_token],
          ['task', u.task_balance],
          ['referral', u.referral_balance],
        ] as const,
        [
          { header: 'BALANCE', value: (r) => r[0] },
          { header: 'AXIOM', value: (r) => tokens(r[1]), align: 'right' },
        ],
      ),
    )
  },
}

export const history: Command = {
  name: 'history',
  args: '[--page N] [--withdrawals]',
  summary: 'Your operations (or sales with --withdrawals), 10 a page, newest first',
  examples: ['axiom history', 'axiom history --withdrawals --page 2'],
  options: { page: { type: 'string' }, withdrawals: { type: 'boolean' } },
  positionals: [0, 0],
  auth: true,
  async run(ctx, out, a) {
    const page = a.values.page === undefined ? 1 : wholeArg(a.values.page, '--page N')
    if (a.values.withdrawals) {
      const p = await out.exec(ctx.uc.loadWithdrawHistory(page), 'Loading sales')
      out.emit(
        { ...p, page, pages: pageCount(p.total) },
        () => table(p.items, withdrawalColumns, 'No sales') + `page ${page} of ${pageCount(p.total)}\n`,
      )
      return
    }
    const p = await out.exec(ctx.uc.loadOperationsHistory(page), 'Loading history')
    out.emit(
      { ...p, page, pages: pageCount(p.total) },
      () => table(p.items, operationColumns, 'No operations') + `page ${page} of ${pageCount(p.total)}\n`,
    )
  },
}
