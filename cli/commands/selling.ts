import { amountArg, stringArg } from '../args.ts'
import { tokens } from '../output.ts'
import { type Command, newKey } from './command.ts'

export const sell: Command = {
  name: 'sell',
  args: '<amount> --to <address> [--from-ref]',
  summary: 'Sell tokens to a TON address (3 % fee), from the main or the referral balance',
  examples: ['axiom sell 5.5 --to EQA_bB0umot8bV5POiscDZ6PemtcTT4vGgucjX5vWks8LYOF'],
  options: { to: { type: 'string' }, 'from-ref': { type: 'boolean' } },
  positionals: [1, 1],
  auth: true,
  async run(ctx, out, a) {
    const amount = amountArg(a.positionals[0])
    const address = stringArg(a.values.to, '--to <address>')
    const w = await out.exec(
      ctx.uc.sellTokens({ amount, address, fromReferral: a.values['from-ref'] === true }, { idempotencyKey: newKey() }),
      'Selling',
    )
    out.emit(
      w,
      `Sale #${w.id} ${w.status}: ${tokens(w.token_amount)} AXIOM${w.net_amount === undefined ? '' : ` (${tokens(w.net_amount)} after the fee)`} to ${w.address}\n`,
    )
  },
}

export const transfer: Command = {
  name: 'transfer',
  args: '<amount>',
  summary: 'Move referral balance into the main balance',
  examples: ['axiom transfer 3'],
  positionals: [1, 1],
  auth: true,
  async run(ctx, out, a) {
    const amount = amountArg(a.positionals[0])
    const r = await out.exec(ctx.uc.transferReferralBalance(amount, { idempotencyKey: newKey() }), 'Transferring')
    out.emit(r, `Moved ${tokens(amount)} AXIOM. Balance ${tokens(r.balance_token)} · referral ${tokens(r.referral_balance)}\n`)
  },
}
